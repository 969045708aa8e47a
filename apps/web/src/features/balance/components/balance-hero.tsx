import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertIcon, CardIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses } from '@/components/ui/surfaces';
import { formatDate } from '@/lib/dates';
import { formatAmount } from '@/lib/money';
import { paymentsCheckinHref } from '@/lib/payment-checkin';
import { cn } from '@/utils/cn';
import { type Balance, useBalance } from '../api/get-balance';

type BalanceHeroProps = {
  /** Home links on to the payments list; the payments list itself does not. */
  showPaymentsLink?: boolean;
  className?: string;
};

/**
 * "What you owe leads" (PRODUCT.md "Screens"): the outstanding total, how much of it is overdue,
 * the next due date, and one "Pagar …" that starts the checkout for exactly the instalments the
 * server chose (every overdue one, else every pending one). Nothing owed: a calm "all paid".
 */
export function BalanceHero({ showPaymentsLink = false, className }: BalanceHeroProps) {
  const { t } = useTranslation('invoices');
  const balance = useBalance();

  let content;
  if (balance.isPending) {
    content = (
      <div role="status" aria-label={t('common.loading')} className="space-y-3">
        <Skeleton className="h-4 w-32" />
        <Skeleton className="h-10 w-44" />
        <Skeleton className="h-11 w-40 rounded-xl" />
      </div>
    );
  } else if (balance.isError) {
    content = (
      <div role="alert" className="flex flex-wrap items-center gap-3">
        <AlertIcon className="size-6 shrink-0 text-red-700 dark:text-red-300" />
        <p className="flex-1 font-medium text-gray-900 dark:text-gray-100">
          {t('balance.loadError')}
        </p>
        <Button variant="secondary" onClick={() => void balance.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else if (balance.data.pay.scope === 'none') {
    content = <AllPaid />;
  } else {
    content = <Owed balance={balance.data} showPaymentsLink={showPaymentsLink} />;
  }

  return (
    <section
      aria-labelledby="balance-title"
      aria-busy={balance.isPending}
      className={cn(cardClasses, 'p-5 sm:p-6', className)}
    >
      <h2 id="balance-title" className="text-sm font-semibold text-gray-700 dark:text-gray-300">
        {t('balance.title')}
      </h2>
      <div className="mt-2">{content}</div>
    </section>
  );
}

function Owed({ balance, showPaymentsLink }: { balance: Balance; showPaymentsLink: boolean }) {
  const { t } = useTranslation('invoices');
  const nextDue = formatDate(balance.next_due_date);
  const payAmount = formatAmount(balance.pay.amount);
  return (
    <div className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
      <div className="min-w-0">
        <p className="text-4xl font-bold break-words text-gray-900 tabular-nums dark:text-gray-50">
          {formatAmount(balance.outstanding)}
        </p>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          {t('balance.instalments', { count: balance.outstanding_count })}
        </p>
        {balance.overdue_count > 0 && (
          <p className="mt-2 inline-flex items-center gap-1.5 text-sm font-semibold text-red-700 dark:text-red-300">
            <AlertIcon className="size-4 shrink-0" />
            {t('balance.overdue', {
              amount: formatAmount(balance.overdue),
              count: balance.overdue_count,
            })}
          </p>
        )}
        {nextDue && (
          <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
            {t('balance.nextDue', { date: nextDue })}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-2 md:items-end">
        <Link
          to={paymentsCheckinHref(balance.pay.payment_ids, balance.pay.amount)}
          className={buttonClasses('primary', 'w-full text-base md:w-auto')}
          aria-describedby="balance-pay-scope"
        >
          <CardIcon className="size-5" />
          {t('balance.pay', { amount: payAmount })}
        </Link>
        <p
          id="balance-pay-scope"
          className="text-xs text-gray-600 md:text-right dark:text-gray-400"
        >
          {balance.pay.scope === 'overdue'
            ? t('balance.payOverdue', { count: balance.pay.payment_ids.length })
            : t('balance.payPending', { count: balance.pay.payment_ids.length })}
        </p>
        {showPaymentsLink && (
          <Link to={paths.payments} className={buttonClasses('ghost', 'w-full md:w-auto')}>
            {t('balance.seePayments')}
          </Link>
        )}
      </div>
    </div>
  );
}

function AllPaid() {
  const { t } = useTranslation('invoices');
  return (
    <div className="flex items-center gap-3">
      <span className="grid size-10 shrink-0 place-items-center rounded-full bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
          className="size-5"
        >
          <path d="m5 12 5 5L20 7" />
        </svg>
      </span>
      <div>
        <p className="text-lg font-semibold text-gray-900 dark:text-gray-50">
          {t('balance.allPaid')}
        </p>
        <p className="text-sm text-gray-700 dark:text-gray-300">{t('balance.allPaidHint')}</p>
      </div>
    </div>
  );
}
