import { type Ref } from 'react';
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
import { InvoicePdfButton, PayInvoiceLink } from './invoice-actions';
import { type ZipSelection, ZipCheckbox } from './zip-selection';

const th =
  'px-4 py-3 text-left text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400';
const td = 'px-4 py-3 align-middle text-gray-900 dark:text-gray-100';

/**
 * The invoice list on a desktop (`lg` and up): date, number (opens the detail), amount, the
 * server's status and the row's actions (PDF, and "Pagar" when something is owed).
 */
export function InvoiceTable({
  invoices,
  bodyRef,
  selection,
}: {
  invoices: readonly InvoiceListItem[];
  bodyRef: Ref<HTMLTableSectionElement>;
  selection?: ZipSelection | undefined;
}) {
  const { t } = useTranslation('invoices');
  return (
    <div className={cn(cardClasses, 'overflow-x-auto')}>
      <table className="w-full text-sm" aria-labelledby="invoice-results">
        <thead className="border-b border-gray-200 dark:border-gray-700">
          <tr>
            {selection && (
              <th scope="col" className={cn(th, 'w-10')}>
                <span className="sr-only">{t('zipSelection.start')}</span>
              </th>
            )}
            <th scope="col" className={th}>
              {t('invoiceList.date')}
            </th>
            <th scope="col" className={th}>
              {t('invoiceList.number')}
            </th>
            <th scope="col" className={cn(th, 'text-right')}>
              {t('invoiceList.amount')}
            </th>
            <th scope="col" className={th}>
              {t('invoiceList.status')}
            </th>
            <th scope="col" className={cn(th, 'text-right')}>
              {t('invoiceList.actions')}
            </th>
          </tr>
        </thead>
        <tbody ref={bodyRef} className="divide-y divide-gray-100 dark:divide-gray-700">
          {invoices.map((invoice) => {
            const status = invoiceStatusLabel(invoice.state);
            const isPayable = isPayableInvoice(invoice);
            return (
              <tr key={invoice.invoice_id} className="hover:bg-gray-50 dark:hover:bg-gray-700/40">
                {selection && (
                  <td className={td}>
                    <ZipCheckbox invoiceId={invoice.invoice_id} selection={selection} />
                  </td>
                )}
                <td className={cn(td, 'whitespace-nowrap')}>
                  {formatDate(invoice.invoice_date) ?? t('common.noDate')}
                </td>
                <td className={cn(td, 'max-w-64')}>
                  <Link
                    to={paths.invoiceDetail.href(invoice.invoice_id)}
                    className="block truncate rounded font-semibold text-primary-ink underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
                  >
                    {invoice.invoice_id}
                  </Link>
                </td>
                <td className={cn(td, 'text-right whitespace-nowrap tabular-nums')}>
                  <span className="font-semibold">{formatAmount(invoice.total)}</span>
                  {isPayable && invoice.amount < invoice.total && (
                    <span className="block text-xs text-gray-600 dark:text-gray-400">
                      {t('invoiceList.stillOwed', { amount: formatAmount(invoice.amount) })}
                    </span>
                  )}
                </td>
                <td className={td}>
                  <StatusBadge tone={invoiceStatusTones[status]}>
                    {t(`invoiceStatus.${status}`)}
                  </StatusBadge>
                </td>
                <td className={cn(td, 'text-right')}>
                  <span className="inline-flex items-start justify-end gap-2">
                    <InvoicePdfButton invoiceId={invoice.invoice_id} />
                    {isPayable && <PayInvoiceLink invoice={invoice} />}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
