import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { paymentStatusTones, StatusBadge } from '@/components/ui/status-badge';
import { cardClasses } from '@/components/ui/surfaces';
import { formatDate } from '@/lib/dates';
import { formatAmount } from '@/lib/money';
import type { PaymentStatus } from '@/lib/payment-status';
import { cn } from '@/utils/cn';
import type { PaymentListItem } from '../api/get-payments';

type PaymentItemProps = {
  payment: PaymentListItem;
  status: PaymentStatus;
  /** In select-to-pay mode: whether this one can be chosen, and whether it is. */
  selection?: { selectable: boolean; selected: boolean; onToggle: (selected: boolean) => void };
};

/** One payment (instalment) of the list: invoice, amount, due date, method, status, paid date. */
export function PaymentItem({ payment, status, selection }: PaymentItemProps) {
  const { t } = useTranslation('invoices');
  const amount = formatAmount(payment.amount);
  const paidOn = formatDate(payment.paid_date);
  return (
    <div
      className={cn(
        cardClasses,
        'flex h-full gap-3 p-4',
        selection?.selected && 'ring-2 ring-primary-ink dark:ring-primary-ink',
      )}
    >
      {selection &&
        (selection.selectable ? (
          <input
            type="checkbox"
            checked={selection.selected}
            onChange={(event) => selection.onToggle(event.target.checked)}
            aria-label={t('payments.selectPayment', { invoice: payment.invoice_id, amount })}
            className="mt-0.5 size-5 shrink-0 cursor-pointer accent-primary-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
          />
        ) : (
          <span aria-hidden="true" className="size-5 shrink-0" />
        ))}
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline justify-between gap-3">
          <Link
            to={paths.invoiceDetail.href(payment.invoice_id)}
            className="truncate rounded font-semibold text-primary-ink underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
          >
            {t('payments.invoice', { id: payment.invoice_id })}
          </Link>
          <span className="font-semibold whitespace-nowrap text-gray-900 tabular-nums dark:text-gray-50">
            {amount}
          </span>
        </div>
        <div className="mt-1 flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-sm text-gray-700 dark:text-gray-300">
          <span>
            {t('payments.dueOn', { date: formatDate(payment.due_date) ?? t('common.noDate') })}
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            {payment.method}
          </span>
          <StatusBadge tone={paymentStatusTones[status]}>
            {t(`paymentStatus.${status}`)}
          </StatusBadge>
        </div>
        {paidOn && (
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            {t('payments.paidOn', { date: paidOn })}
          </p>
        )}
      </div>
    </div>
  );
}
