import { useTranslation } from '@/lib/use-translation';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { formatAmount, formatNumber } from '@/lib/money';
import { cn } from '@/utils/cn';
import type { InvoiceDetail } from '../api/get-invoice';

type Line = InvoiceDetail['lines'][number];

const th =
  'px-3 py-2 text-left text-xs font-semibold tracking-wide text-gray-600 uppercase print:px-2 print:text-gray-700 dark:text-gray-400';
const td = 'px-3 py-2 align-top text-gray-900 print:px-2 dark:text-gray-100';

/**
 * Spec §2 "Invoice detail" lines: person, concept, quota, quantity, unit value and the line's
 * amount. A table from `md` and on paper; on a phone, one block per line.
 */
export function InvoiceLines({ lines }: { lines: readonly Line[] }) {
  const { t } = useTranslation('invoices');
  return (
    <section aria-labelledby="invoice-lines" className={cn(cardClasses, 'p-4 sm:p-5')}>
      <h2 id="invoice-lines" className={sectionTitleClasses}>
        {t('invoiceDetail.lines.title')}
      </h2>
      {lines.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">
          {t('invoiceDetail.lines.empty')}
        </p>
      ) : (
        <>
          <ul className="mt-3 divide-y divide-gray-200 md:hidden print:hidden dark:divide-gray-700">
            {lines.map((line, index) => (
              <li key={index} className="py-3 first:pt-0 last:pb-0">
                <div className="flex items-baseline justify-between gap-3">
                  <p className="font-semibold text-gray-900 dark:text-gray-50">{line.concept}</p>
                  <p className="font-semibold text-gray-900 tabular-nums dark:text-gray-50">
                    {formatAmount(line.amount)}
                  </p>
                </div>
                <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                  <LineField label={t('invoiceDetail.lines.person')} value={line.person} />
                  <LineField label={t('invoiceDetail.lines.quota')} value={line.quota} />
                  <LineField
                    label={t('invoiceDetail.lines.quantity')}
                    value={formatNumber(line.quantity)}
                  />
                  <LineField
                    label={t('invoiceDetail.lines.unitPrice')}
                    value={`${formatAmount(line.unit_price)} · ${t('invoiceDetail.lines.vatRate', { rate: formatNumber(line.iva) })}`}
                  />
                </dl>
              </li>
            ))}
          </ul>
          <div className="mt-3 hidden overflow-x-auto md:block print:block print:overflow-visible">
            <table className="w-full text-sm print:text-xs">
              <thead className="border-b border-gray-200 dark:border-gray-700 print:border-gray-400">
                <tr>
                  <th scope="col" className={th}>
                    {t('invoiceDetail.lines.person')}
                  </th>
                  <th scope="col" className={th}>
                    {t('invoiceDetail.lines.concept')}
                  </th>
                  <th scope="col" className={th}>
                    {t('invoiceDetail.lines.quota')}
                  </th>
                  <th scope="col" className={cn(th, 'text-right')}>
                    {t('invoiceDetail.lines.quantity')}
                  </th>
                  <th scope="col" className={cn(th, 'text-right')}>
                    {t('invoiceDetail.lines.unitPrice')}
                  </th>
                  <th scope="col" className={cn(th, 'text-right')}>
                    {t('invoiceDetail.lines.amount')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100 dark:divide-gray-700 print:divide-gray-300">
                {lines.map((line, index) => (
                  <tr key={index}>
                    <td className={td}>{line.person}</td>
                    <td className={td}>{line.concept}</td>
                    <td className={td}>{line.quota}</td>
                    <td className={cn(td, 'text-right tabular-nums')}>
                      {formatNumber(line.quantity)}
                    </td>
                    <td className={cn(td, 'text-right whitespace-nowrap tabular-nums')}>
                      {formatAmount(line.unit_price)}
                      <span className="block text-xs text-gray-600 dark:text-gray-400">
                        {t('invoiceDetail.lines.vatRate', { rate: formatNumber(line.iva) })}
                      </span>
                    </td>
                    <td
                      className={cn(td, 'text-right font-semibold whitespace-nowrap tabular-nums')}
                    >
                      {formatAmount(line.amount)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function LineField({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-gray-600 dark:text-gray-400">{label}</dt>
      <dd className="break-words text-gray-900 dark:text-gray-100">{value}</dd>
    </div>
  );
}
