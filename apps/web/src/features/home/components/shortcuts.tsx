import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ChevronRightIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { invoiceStatusTones, paymentStatusTones, StatusBadge } from '@/components/ui/status-badge';
import { cardClasses, interactiveCardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { formatDate, lastItemsRange } from '@/lib/dates';
import { invoiceStatusLabel } from '@/lib/invoice-status';
import { formatAmount } from '@/lib/money';
import type { PaymentStatus } from '@/lib/payment-status';
import { cn } from '@/utils/cn';
import { useLastInvoice } from '../api/get-last-invoice';
import { useLastPayment } from '../api/get-last-payment';

function ShortcutCard({ to, title, children }: { to: string; title: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className={cn(cardClasses, interactiveCardClasses, 'flex h-full items-center gap-3 p-4')}
    >
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-medium text-gray-700 dark:text-gray-300">{title}</span>
        {children}
      </span>
      <ChevronRightIcon className="size-5 shrink-0 text-gray-500 dark:text-gray-400" />
    </Link>
  );
}

function Loading() {
  return (
    <span className="mt-2 block space-y-2">
      <Skeleton className="h-5 w-32" />
      <Skeleton className="h-4 w-24" />
    </span>
  );
}

const note = 'mt-1 block text-sm text-gray-600 dark:text-gray-400';

/**
 * Spec §2 "Home" shortcuts: the last invoice (id, date, total, paid/pending; opens its detail, or
 * the list when there is none) and the last payment (amount, due date, status; opens the payments),
 * found over two calendar years (spec §7), with their empty labels.
 */
export function Shortcuts({ className }: { className?: string }) {
  const { t } = useTranslation('invoices');
  const range = lastItemsRange();
  const invoice = useLastInvoice(range);
  const payment = useLastPayment(range);
  const lastInvoice = invoice.data;
  const lastPayment = payment.data;

  return (
    <section aria-labelledby="home-shortcuts" className={className}>
      <h2 id="home-shortcuts" className={sectionTitleClasses}>
        {t('home.shortcuts.title')}
      </h2>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2">
        <li>
          <ShortcutCard
            to={lastInvoice ? paths.invoiceDetail.href(lastInvoice.invoice_id) : paths.invoices}
            title={t('home.shortcuts.lastInvoice')}
          >
            {invoice.isPending ? (
              <Loading />
            ) : invoice.isError ? (
              <span className={note}>{t('home.shortcuts.error')}</span>
            ) : !lastInvoice ? (
              <span className={note}>{t('home.shortcuts.noInvoice')}</span>
            ) : (
              <>
                <span className="mt-1 block font-semibold text-gray-900 dark:text-gray-50">
                  {t('home.shortcuts.invoice', { id: lastInvoice.invoice_id })}
                </span>
                <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-gray-700 dark:text-gray-300">
                  <span>{formatDate(lastInvoice.invoice_date) ?? t('common.noDate')}</span>
                  <span className="font-semibold text-gray-900 tabular-nums dark:text-gray-50">
                    {formatAmount(lastInvoice.total)}
                  </span>
                  <StatusBadge tone={invoiceStatusTones[invoiceStatusLabel(lastInvoice.state)]}>
                    {t(`invoiceStatus.${invoiceStatusLabel(lastInvoice.state)}`)}
                  </StatusBadge>
                </span>
              </>
            )}
          </ShortcutCard>
        </li>
        <li>
          <ShortcutCard to={paths.payments} title={t('home.shortcuts.lastPayment')}>
            {payment.isPending ? (
              <Loading />
            ) : payment.isError ? (
              <span className={note}>{t('home.shortcuts.error')}</span>
            ) : !lastPayment ? (
              <span className={note}>{t('home.shortcuts.noPayment')}</span>
            ) : (
              <PaymentSummary
                amount={formatAmount(lastPayment.amount)}
                due={t('home.shortcuts.dueOn', {
                  date: formatDate(lastPayment.due_date) ?? t('common.noDate'),
                })}
                status={lastPayment.status}
              />
            )}
          </ShortcutCard>
        </li>
      </ul>
    </section>
  );
}

function PaymentSummary({
  amount,
  due,
  status,
}: {
  amount: string;
  due: string;
  status: PaymentStatus;
}) {
  const { t } = useTranslation('invoices');
  return (
    <>
      <span className="mt-1 block font-semibold text-gray-900 tabular-nums dark:text-gray-50">
        {amount}
      </span>
      <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-gray-700 dark:text-gray-300">
        <span>{due}</span>
        <StatusBadge tone={paymentStatusTones[status]}>{t(`paymentStatus.${status}`)}</StatusBadge>
      </span>
    </>
  );
}
