import { useTranslation } from '@/lib/use-translation';
import { paymentMethodName } from '@/lib/payment-method-name';
import { paymentStatusTones, StatusBadge } from '@/components/ui/status-badge';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { ReturnedDebitNote } from '@/components/ui/returned-debit-note';
import { buttonClasses } from '@/components/ui/button';
import { paymentsCheckinHref } from '@/lib/payment-checkin';
import { Link } from 'react-router';
import { formatDate } from '@/lib/dates';
import { formatAmount } from '@/lib/money';
import { cn } from '@/utils/cn';
import type { InvoiceDetail } from '../api/get-invoice';

type Instalment = InvoiceDetail['payments'][number];

const th =
  'px-3 py-2 text-left text-xs font-semibold tracking-wide text-gray-600 uppercase print:px-2 print:text-gray-700 dark:text-gray-400';
const td = 'px-3 py-2 text-gray-900 print:px-2 dark:text-gray-100';

/**
 * Spec §2 "Invoice detail" payments: due date, method, amount, paid date, and the status the
 * server computed (paid, overdue, pending, cancelled). A table from `md` and on paper; blocks on a
 * phone.
 */
export function InvoiceInstalments({ instalments }: { instalments: readonly Instalment[] }) {
  const { t } = useTranslation('invoices');
  const rows = instalments.map((instalment) => ({
    instalment,
    status: instalment.status,
    due: formatDate(instalment.duedate) ?? t('common.noDate'),
    paid: formatDate(instalment.paiddate) ?? t('invoiceDetail.payments.notPaid'),
  }));
  return (
    <section aria-labelledby="invoice-payments" className={cn(cardClasses, 'p-4 sm:p-5')}>
      <h2 id="invoice-payments" className={sectionTitleClasses}>
        {t('invoiceDetail.payments.title')}
      </h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">
          {t('invoiceDetail.payments.empty')}
        </p>
      ) : (
        <>
          <ul className="mt-3 divide-y divide-gray-200 md:hidden print:hidden dark:divide-gray-700">
            {rows.map(({ instalment, status, due, paid }) => (
              <li key={instalment.payment_id} className="py-3 first:pt-0 last:pb-0">
                <div className="flex items-center justify-between gap-3">
                  <p className="font-semibold text-gray-900 tabular-nums dark:text-gray-50">
                    {formatAmount(instalment.import)}
                  </p>
                  <StatusBadge tone={paymentStatusTones[status]}>
                    {t(`paymentStatus.${status}`)}
                  </StatusBadge>
                </div>
                <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                  <Item label={t('invoiceDetail.payments.dueDate')} value={due} />
                  <Item label={t('invoiceDetail.payments.paidDate')} value={paid} />
                  <Item
                    label={t('invoiceDetail.payments.method')}
                    value={paymentMethodName(instalment, t)}
                  />
                </dl>
                {instalment.returned && (
                  <ReturnedDebit instalment={instalment} returned={instalment.returned} />
                )}
              </li>
            ))}
          </ul>
          <div className="mt-3 hidden overflow-x-auto md:block print:block print:overflow-visible">
            <table className="w-full text-sm print:text-xs">
              <thead className="border-b border-gray-200 dark:border-gray-700 print:border-gray-400">
                <tr>
                  <th scope="col" className={th}>
                    {t('invoiceDetail.payments.dueDate')}
                  </th>
                  <th scope="col" className={th}>
                    {t('invoiceDetail.payments.method')}
                  </th>
                  <th scope="col" className={cn(th, 'text-right')}>
                    {t('invoiceDetail.payments.amount')}
                  </th>
                  <th scope="col" className={th}>
                    {t('invoiceDetail.payments.paidDate')}
                  </th>
                  <th scope="col" className={th}>
                    {t('invoiceDetail.payments.status')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100 dark:divide-gray-700 print:divide-gray-300">
                {rows.map(({ instalment, status, due, paid }) => (
                  <tr key={instalment.payment_id}>
                    <td className={cn(td, 'whitespace-nowrap')}>{due}</td>
                    <td className={td}>{paymentMethodName(instalment, t)}</td>
                    <td className={cn(td, 'text-right whitespace-nowrap tabular-nums')}>
                      {formatAmount(instalment.import)}
                    </td>
                    <td className={cn(td, 'whitespace-nowrap')}>{paid}</td>
                    <td className={td}>
                      <StatusBadge tone={paymentStatusTones[status]}>
                        {t(`paymentStatus.${status}`)}
                      </StatusBadge>
                      {instalment.returned && (
                        <ReturnedDebit instalment={instalment} returned={instalment.returned} />
                      )}
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

/** A returned debit's reason and fee, and the payment of exactly this instalment. */
function ReturnedDebit({
  instalment,
  returned,
}: {
  instalment: Instalment;
  returned: NonNullable<Instalment['returned']>;
}) {
  const { t } = useTranslation('invoices');
  return (
    <div className="mt-2 flex flex-col items-start gap-2">
      <ReturnedDebitNote returned={returned} />
      <Link
        to={paymentsCheckinHref([instalment.payment_id], instalment.import)}
        className={buttonClasses('primary', 'print:hidden')}
      >
        {t('returnedDebit.payNow')}
      </Link>
    </div>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-gray-600 dark:text-gray-400">{label}</dt>
      <dd className="break-words text-gray-900 dark:text-gray-100">{value}</dd>
    </div>
  );
}
