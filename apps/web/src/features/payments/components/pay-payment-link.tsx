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
  payment: Pick<PaymentListItem, 'payment_id' | 'invoice_id' | 'amount'>;
  className?: string;
}) {
  const { t } = useTranslation('invoices');
  return (
    <Link
      to={paymentsCheckinHref([payment.payment_id], payment.amount)}
      aria-label={t('payments.payOne', {
        invoice: payment.invoice_id,
        amount: formatAmount(payment.amount),
      })}
      className={buttonClasses('primary', cn('relative z-10', className))}
    >
      {t('payments.pay')}
    </Link>
  );
}
