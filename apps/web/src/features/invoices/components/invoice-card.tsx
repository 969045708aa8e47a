import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ChevronRightIcon } from '@/components/ui/icons';
import { invoiceStatusTones, StatusBadge } from '@/components/ui/status-badge';
import { cardClasses, interactiveCardClasses } from '@/components/ui/surfaces';
import { formatDate } from '@/lib/dates';
import { invoiceCardStatus } from '@/lib/invoice-status';
import { formatAmount } from '@/lib/money';
import { cn } from '@/utils/cn';
import type { InvoiceListItem } from '../api/get-invoices';

/**
 * Spec §2 "Invoice list" card: id, date, status text, amount with 2 decimals and €, chevron; the
 * whole card opens the detail. The status comes from the amounts (spec §4); a partly paid invoice
 * also says what is still owed.
 */
export function InvoiceCard({ invoice }: { invoice: InvoiceListItem }) {
  const { t } = useTranslation('invoices');
  const status = invoiceCardStatus(invoice);
  return (
    <Link
      to={paths.invoiceDetail.href(invoice.invoice_id)}
      className={cn(cardClasses, interactiveCardClasses, 'flex h-full items-center gap-3 p-4')}
    >
      <span className="min-w-0 flex-1">
        <span className="block truncate font-semibold text-gray-900 dark:text-gray-50">
          {invoice.invoice_id}
        </span>
        <span className="mt-0.5 block text-sm text-gray-600 dark:text-gray-400">
          {formatDate(invoice.invoice_date) ?? t('common.noDate')}
        </span>
      </span>
      <span className="flex flex-col items-end gap-1 text-right">
        <span className="font-semibold text-gray-900 tabular-nums dark:text-gray-50">
          {formatAmount(invoice.total)}
        </span>
        <StatusBadge tone={invoiceStatusTones[status]}>{t(`invoiceStatus.${status}`)}</StatusBadge>
        {status === 'partiallyPaid' && (
          <span className="text-xs text-gray-700 dark:text-gray-300">
            {t('invoiceList.stillOwed', { amount: formatAmount(invoice.amount) })}
          </span>
        )}
      </span>
      <ChevronRightIcon className="size-5 shrink-0 text-gray-500 dark:text-gray-400" />
    </Link>
  );
}
