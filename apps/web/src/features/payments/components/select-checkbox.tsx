import { useTranslation } from '@/lib/use-translation';
import { formatAmount } from '@/lib/money';
import type { PaymentListItem } from '../api/get-payments';
import type { RowSelection } from './selection';

/** The checkbox of a row in select-to-pay mode; a blank of its size where a row cannot be chosen. */
export function SelectCheckbox({
  payment,
  selection,
}: {
  payment: PaymentListItem;
  selection: RowSelection;
}) {
  const { t } = useTranslation('invoices');
  if (!selection.selectable) return <span aria-hidden="true" className="block size-5 shrink-0" />;
  return (
    <input
      type="checkbox"
      checked={selection.selected}
      onChange={(event) => selection.onToggle(event.target.checked)}
      aria-label={t('payments.selectPayment', {
        invoice: payment.invoice_id,
        amount: formatAmount(payment.amount),
      })}
      className="relative z-10 size-5 shrink-0 cursor-pointer accent-primary-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
    />
  );
}
