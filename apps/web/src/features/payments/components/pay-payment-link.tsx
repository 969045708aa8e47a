import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { formatAmount } from '@/lib/money';
import { paymentsCheckinHref } from '@/lib/payment-checkin';
import { cn } from '@/utils/cn';
import type { PaymentListItem } from '../api/get-payments';

/**
 * A row's own "Pagar": the checkout of this one instalment, the way select-to-pay hands over
 * several. Above a card's stretched link (`relative z-10`), so it is its own tap target.
 */
export function PayPaymentLink({
  payment,
  className,
}: {
  payment: Pick<PaymentListItem, 'payment_id' | 'invoice_id' | 'amount' | 'to_pay'>;
  className?: string;
}) {
  const { t } = useTranslation('invoices');
  // What paying it costs now (a returned debit's charged fee included), as the server says.
  const amount = payment.to_pay ?? payment.amount;
  return (
    <Link
      to={paymentsCheckinHref([payment.payment_id], amount)}
      aria-label={t('payments.payOne', {
        invoice: payment.invoice_id,
        amount: formatAmount(amount),
      })}
      className={buttonClasses('primary', cn('relative z-10', className))}
    >
      {t('payments.pay')}
    </Link>
  );
}
