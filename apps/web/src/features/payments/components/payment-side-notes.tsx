import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { BankIcon, ChevronRightIcon } from '@/components/ui/icons';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';

const linkRow =
  'flex min-h-11 items-center gap-3 rounded-xl px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink';

/**
 * Beside the payments: the bank-transfer note and the related links of spec §2 (contracts,
 * disabled and marked unavailable; invoices).
 */
export function PaymentSideNotes({ className }: { className?: string }) {
  const { t } = useTranslation('invoices');
  return (
    <div className={cn('h-fit space-y-6', className)}>
      <aside
        aria-labelledby="bank-transfer"
        className="flex gap-3 rounded-2xl bg-sky-50 p-4 text-sm text-sky-950 ring-1 ring-sky-200 dark:bg-sky-950/40 dark:text-sky-100 dark:ring-sky-800"
      >
        <BankIcon className="size-6 shrink-0" />
        <div>
          <h2 id="bank-transfer" className="font-semibold">
            {t('payments.bankTransferTitle')}
          </h2>
          <p className="mt-1">{t('payments.bankTransfer')}</p>
        </div>
      </aside>
      <nav aria-labelledby="payment-related" className={cn(cardClasses, 'p-2')}>
        <h2 id="payment-related" className={cn(sectionTitleClasses, 'px-3 pt-2 pb-1 text-base')}>
          {t('common.relatedLinks')}
        </h2>
        <ul>
          <li>
            <span aria-disabled="true" className={cn(linkRow, 'text-gray-600 dark:text-gray-400')}>
              <span className="flex-1">{t('payments.contracts')}</span>
              <span className="text-xs">{t('common.comingSoon')}</span>
            </span>
          </li>
          <li>
            <Link
              to={paths.invoices}
              className={cn(
                linkRow,
                'text-gray-900 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-700',
              )}
            >
              <span className="flex-1">{t('payments.invoices')}</span>
              <ChevronRightIcon className="size-5 text-gray-500 dark:text-gray-400" />
            </Link>
          </li>
          <li>
            <Link
              to={paths.documents}
              className={cn(
                linkRow,
                'text-gray-900 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-700',
              )}
            >
              <span className="flex-1">{t('documents.title')}</span>
              <ChevronRightIcon className="size-5 text-gray-500 dark:text-gray-400" />
            </Link>
          </li>
        </ul>
      </nav>
    </div>
  );
}
