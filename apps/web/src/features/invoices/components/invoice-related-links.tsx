import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ChevronRightIcon } from '@/components/ui/icons';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';

const linkRow =
  'flex min-h-11 items-center gap-3 rounded-xl px-3 py-2 text-sm font-medium text-gray-900 hover:bg-gray-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink dark:text-gray-100 dark:hover:bg-gray-700';

/**
 * Spec §2: invoices with overdue payments and the payments. (The spec's disabled "quotas" link is
 * left out: PRODUCT.md keeps no placeholder beyond budgets, contracts and the calendar tab.)
 */
export function InvoiceRelatedLinks({ className }: { className?: string }) {
  const { t } = useTranslation('invoices');
  const links = [
    { to: `${paths.payments}?overdue=1`, label: t('invoiceList.overdueInvoices') },
    { to: paths.payments, label: t('invoiceList.payments') },
    { to: paths.documents, label: t('documents.title') },
  ];
  return (
    <nav aria-labelledby="invoice-related" className={cn(cardClasses, 'h-fit p-2', className)}>
      <h2 id="invoice-related" className={cn(sectionTitleClasses, 'px-3 pt-2 pb-1 text-base')}>
        {t('common.relatedLinks')}
      </h2>
      <ul>
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={linkRow}>
              <span className="flex-1">{link.label}</span>
              <ChevronRightIcon className="size-5 text-gray-500 dark:text-gray-400" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
