import { paymentMethodName } from '@/lib/payment-method-name';
import type { Ref } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { paymentStatusTones, StatusBadge } from '@/components/ui/status-badge';
import { ReturnedDebitNote } from '@/components/ui/returned-debit-note';
import { cardClasses } from '@/components/ui/surfaces';
import { formatDate } from '@/lib/dates';
import { formatAmount } from '@/lib/money';
import { isUnpaid } from '@/lib/payment-status';
import { cn } from '@/utils/cn';
import type { PaymentListItem } from '../api/get-payments';
import { PayPaymentLink } from './pay-payment-link';
import { ReceiptButton } from './receipt-button';
import { SelectCheckbox } from './select-checkbox';
import type { RowSelection } from './selection';

const th =
  'px-4 py-3 text-left text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400';
const td = 'px-4 py-3 align-middle text-gray-900 dark:text-gray-100';

/**
 * The payments list on a desktop (`lg` and up): due date, invoice (opens it), amount, method, the
 * server's status and the row's "Pagar" (or, paid in the portal, its "Justificante"); in select-to-pay mode a first column of checkboxes.
 */
export function PaymentTable({
  payments,
  selectionOf,
  bodyRef,
}: {
  payments: readonly PaymentListItem[];
  /** Present in select-to-pay mode. */
  selectionOf?: ((payment: PaymentListItem) => RowSelection) | undefined;
  bodyRef: Ref<HTMLTableSectionElement>;
}) {
  const { t } = useTranslation('invoices');
  return (
    <div className={cn(cardClasses, 'overflow-x-auto')}>
      <table className="w-full text-sm" aria-labelledby="payment-results">
        <thead className="border-b border-gray-200 dark:border-gray-700">
          <tr>
            {selectionOf && (
              <th scope="col" className={cn(th, 'w-12')}>
                <span className="sr-only">{t('payments.select')}</span>
              </th>
            )}
            <th scope="col" className={th}>
              {t('payments.dueDate')}
            </th>
            <th scope="col" className={th}>
              {t('payments.invoiceColumn')}
            </th>
            <th scope="col" className={cn(th, 'text-right')}>
              {t('payments.amount')}
            </th>
            <th scope="col" className={th}>
              {t('payments.method')}
            </th>
            <th scope="col" className={th}>
              {t('payments.status')}
            </th>
            <th scope="col" className={cn(th, 'text-right')}>
              {t('payments.actions')}
            </th>
          </tr>
        </thead>
        <tbody ref={bodyRef} className="divide-y divide-gray-100 dark:divide-gray-700">
          {payments.map((payment) => {
            const selection = selectionOf?.(payment);
            const paidOn = formatDate(payment.paid_date);
            return (
              <tr
                key={payment.payment_id}
                className={cn(
                  'hover:bg-gray-50 dark:hover:bg-gray-700/40',
                  selection?.selected && 'bg-primary-50 dark:bg-gray-700/60',
                )}
              >
                {selection && (
                  <td className={td}>
                    <SelectCheckbox payment={payment} selection={selection} />
                  </td>
                )}
                <td className={cn(td, 'whitespace-nowrap')}>
                  {formatDate(payment.due_date) ?? t('common.noDate')}
                  {paidOn && (
                    <span className="block text-xs text-gray-600 dark:text-gray-400">
                      {t('payments.paidOn', { date: paidOn })}
                    </span>
                  )}
                </td>
                <td className={cn(td, 'max-w-56')}>
                  <Link
                    to={paths.invoiceDetail.href(payment.invoice_id)}
                    className="block truncate rounded font-semibold text-primary-ink underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
                  >
                    {payment.invoice_id}
                  </Link>
                </td>
                <td className={cn(td, 'text-right font-semibold whitespace-nowrap tabular-nums')}>
                  {formatAmount(payment.amount)}
                </td>
                <td className={td}>{paymentMethodName(payment, t)}</td>
                <td className={td}>
                  <StatusBadge tone={paymentStatusTones[payment.status]}>
                    {t(`paymentStatus.${payment.status}`)}
                  </StatusBadge>
                  {payment.returned && (
                    <ReturnedDebitNote returned={payment.returned} className="mt-1 max-w-64" />
                  )}
                </td>
                <td className={cn(td, 'text-right')}>
                  {!selection && isUnpaid(payment.status) && <PayPaymentLink payment={payment} />}
                  {!selection && payment.receipt_id && (
                    <ReceiptButton
                      receiptId={payment.receipt_id}
                      invoiceId={payment.invoice_id}
                      className="items-end"
                    />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
