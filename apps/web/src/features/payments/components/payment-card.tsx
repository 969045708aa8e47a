import { paymentMethodName } from '@/lib/payment-method-name';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { paymentStatusTones, StatusBadge } from '@/components/ui/status-badge';
import { cardClasses } from '@/components/ui/surfaces';
import { ReturnedDebitNote } from '@/components/ui/returned-debit-note';
import { formatDate } from '@/lib/dates';
import { formatAmount } from '@/lib/money';
import { isUnpaid } from '@/lib/payment-status';
import { cn } from '@/utils/cn';
import type { PaymentListItem } from '../api/get-payments';
import { PayPaymentLink } from './pay-payment-link';
import { ReceiptButton } from './receipt-button';
import { SelectCheckbox } from './select-checkbox';
import type { RowSelection } from './selection';

/** The invoice link covers the whole card (its `::after`), so the card is one tap target. */
const stretchedLink =
  'rounded after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-primary-ink';

/**
 * One payment (instalment) on a phone or tablet: invoice, due date and method on the left; amount
 * and the server's status always in the same place on the right; the paid date; and its own
 * "Pagar" while unpaid (outside select-to-pay). Tapping the card opens the invoice.
 */
export function PaymentCard({
  payment,
  selection,
}: {
  payment: PaymentListItem;
  /** In select-to-pay mode. */
  selection?: RowSelection | undefined;
}) {
  const { t } = useTranslation('invoices');
  const paidOn = formatDate(payment.paid_date);
  return (
    <div
      className={cn(
        cardClasses,
        'relative flex h-full gap-3 p-4 transition hover:ring-primary-ink',
        selection?.selected && 'ring-2 ring-primary-ink dark:ring-primary-ink',
      )}
    >
      {selection && (
        <span className="pt-0.5">
          <SelectCheckbox payment={payment} selection={selection} />
        </span>
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <Link
              to={paths.invoiceDetail.href(payment.invoice_id)}
              className={cn(stretchedLink, 'block truncate font-semibold text-primary-ink')}
            >
              {t('payments.invoice', { id: payment.invoice_id })}
            </Link>
            <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
              {t('payments.dueOn', { date: formatDate(payment.due_date) ?? t('common.noDate') })}
              <span aria-hidden="true"> · </span>
              <span className="sr-only">, </span>
              {paymentMethodName(payment, t)}
            </p>
            {paidOn && (
              <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
                {t('payments.paidOn', { date: paidOn })}
              </p>
            )}
            {payment.returned && <ReturnedDebitNote returned={payment.returned} className="mt-1" />}
          </div>
          <div className="flex shrink-0 flex-col items-end gap-1">
            <span className="font-semibold whitespace-nowrap text-gray-900 tabular-nums dark:text-gray-50">
              {formatAmount(payment.amount)}
            </span>
            <StatusBadge tone={paymentStatusTones[payment.status]}>
              {t(`paymentStatus.${payment.status}`)}
            </StatusBadge>
          </div>
        </div>
        {!selection && isUnpaid(payment.status) && (
          <div className="flex justify-end border-t border-gray-100 pt-3 dark:border-gray-700">
            <PayPaymentLink payment={payment} />
          </div>
        )}
        {!selection && payment.receipt_id && (
          <div className="flex justify-end border-t border-gray-100 pt-3 dark:border-gray-700">
            <ReceiptButton
              receiptId={payment.receipt_id}
              invoiceId={payment.invoice_id}
              className="items-end"
            />
          </div>
        )}
      </div>
    </div>
  );
}
