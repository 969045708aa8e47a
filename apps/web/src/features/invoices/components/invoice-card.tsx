import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { invoiceStatusTones, StatusBadge } from '@/components/ui/status-badge';
import { cardClasses } from '@/components/ui/surfaces';
import { formatDate } from '@/lib/dates';
import { invoiceStatusLabel, isPayableInvoice } from '@/lib/invoice-status';
import { formatAmount } from '@/lib/money';
import { cn } from '@/utils/cn';
import type { InvoiceListItem } from '../api/get-invoices';
import { PayInvoiceLink } from './invoice-actions';
import { type ZipSelection, ZipCheckbox } from './zip-selection';

/** The number's link covers the whole card (its `::after`), so the card is one tap target. */
export const stretchedLink =
  'rounded after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-primary-ink';

/**
 * Spec §2 "Invoice list" card (phones and tablets): number, date, total, the status the server
 * sent (in one place on every card), what is still owed when part was paid, and "Pagar" when
 * something is owed. Tapping anywhere else opens the detail.
 */
export function InvoiceCard({
  invoice,
  selection,
}: {
  invoice: InvoiceListItem;
  selection?: ZipSelection | undefined;
}) {
  const { t } = useTranslation('invoices');
  const status = invoiceStatusLabel(invoice.state);
  const isPayable = isPayableInvoice(invoice);
  return (
    <div
      className={cn(
        cardClasses,
        'relative flex h-full flex-col gap-3 p-4 transition hover:ring-primary-ink',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        {selection && <ZipCheckbox invoiceId={invoice.invoice_id} selection={selection} />}
        <div className="min-w-0 flex-1">
          <Link
            to={paths.invoiceDetail.href(invoice.invoice_id)}
            className={cn(
              stretchedLink,
              'block truncate font-semibold text-gray-900 dark:text-gray-50',
            )}
          >
            {invoice.invoice_id}
          </Link>
          <p className="mt-0.5 text-sm text-gray-600 dark:text-gray-400">
            {formatDate(invoice.invoice_date) ?? t('common.noDate')}
          </p>
        </div>
        <div className="flex shrink-0 flex-col items-end gap-1 text-right">
          <span className="font-semibold whitespace-nowrap text-gray-900 tabular-nums dark:text-gray-50">
            {formatAmount(invoice.total)}
          </span>
          <StatusBadge tone={invoiceStatusTones[status]}>
            {t(`invoiceStatus.${status}`)}
          </StatusBadge>
        </div>
      </div>
      {isPayable && (
        <div className="flex items-center justify-between gap-3 border-t border-gray-100 pt-3 dark:border-gray-700">
          <span className="text-sm text-gray-700 dark:text-gray-300">
            {t('invoiceList.stillOwed', { amount: formatAmount(invoice.amount) })}
          </span>
          <PayInvoiceLink invoice={invoice} />
        </div>
      )}
    </div>
  );
}
