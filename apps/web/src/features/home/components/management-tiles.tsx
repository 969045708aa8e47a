import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { CalculatorIcon, CardIcon, ContractIcon, DocumentIcon } from '@/components/ui/icons';
import { cardClasses, interactiveCardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';

const tile = 'flex h-full min-h-28 flex-col gap-2 p-4';

function ActiveTile({
  to,
  icon,
  label,
  hint,
}: {
  to: string;
  icon: ReactNode;
  label: string;
  hint: string;
}) {
  return (
    <Link to={to} className={cn(cardClasses, interactiveCardClasses, tile)}>
      <span className="grid size-10 place-items-center rounded-xl bg-primary-100 text-primary-900 dark:bg-gray-700 dark:text-primary-ink">
        {icon}
      </span>
      <span className="font-semibold text-gray-900 dark:text-gray-50">{label}</span>
      <span className="text-xs text-gray-600 dark:text-gray-300">{hint}</span>
    </Link>
  );
}

function DisabledTile({ icon, label, note }: { icon: ReactNode; label: string; note: string }) {
  return (
    <div
      aria-disabled="true"
      className={cn(
        tile,
        'rounded-2xl border border-dashed border-gray-300 text-gray-600 dark:border-gray-600 dark:text-gray-400',
      )}
    >
      <span className="grid size-10 place-items-center rounded-xl bg-gray-100 dark:bg-gray-800">
        {icon}
      </span>
      <span className="font-semibold">{label}</span>
      <span className="text-xs">{note}</span>
    </div>
  );
}

/** Spec §2 "Home" management tiles: Invoices and Payments active; Budgets and Contracts disabled. */
export function ManagementTiles({ className }: { className?: string }) {
  const { t } = useTranslation('invoices');
  return (
    <section aria-labelledby="home-management" className={className}>
      <h2 id="home-management" className={sectionTitleClasses}>
        {t('home.management.title')}
      </h2>
      <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <li>
          <ActiveTile
            to={paths.invoices}
            icon={<DocumentIcon />}
            label={t('home.management.invoices')}
            hint={t('home.management.invoicesHint')}
          />
        </li>
        <li>
          <ActiveTile
            to={paths.payments}
            icon={<CardIcon />}
            label={t('home.management.payments')}
            hint={t('home.management.paymentsHint')}
          />
        </li>
        <li>
          <DisabledTile
            icon={<CalculatorIcon />}
            label={t('home.management.budgets')}
            note={t('common.comingSoon')}
          />
        </li>
        <li>
          <DisabledTile
            icon={<ContractIcon />}
            label={t('home.management.contracts')}
            note={t('common.comingSoon')}
          />
        </li>
      </ul>
    </section>
  );
}
