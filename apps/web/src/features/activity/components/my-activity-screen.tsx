import { useTranslation } from '@/lib/use-translation';
import {
  CalculatorIcon,
  CardIcon,
  ContractIcon,
  DocumentIcon,
  UserIcon,
} from '@/components/ui/icons';
import { OptionTile } from '@/components/ui/option-tile';
import { pageClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { paths } from '@/config/paths';

/**
 * Spec §2 "My activity": My user, Invoices and Payments; Contracts and Budgets shown disabled.
 */
export function MyActivityScreen() {
  const { t } = useTranslation('auth');
  return (
    <div className={pageClasses}>
      <h1 className={pageTitleClasses}>{t('activity.title')}</h1>
      <p className="mt-1 text-gray-700 dark:text-gray-300">{t('activity.description')}</p>
      <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <li>
          <OptionTile
            to={paths.userProfile}
            icon={<UserIcon />}
            label={t('options.myUser')}
            description={t('options.myUserDescription')}
          />
        </li>
        <li>
          <OptionTile
            to={paths.invoices}
            icon={<DocumentIcon />}
            label={t('options.invoices')}
            description={t('options.invoicesDescription')}
          />
        </li>
        <li>
          <OptionTile
            to={paths.payments}
            icon={<CardIcon />}
            label={t('options.payments')}
            description={t('options.paymentsDescription')}
          />
        </li>
        <li>
          <OptionTile
            icon={<ContractIcon />}
            label={t('options.contracts')}
            disabledNote={t('options.comingSoon')}
          />
        </li>
        <li>
          <OptionTile
            icon={<CalculatorIcon />}
            label={t('options.budgets')}
            disabledNote={t('options.comingSoon')}
          />
        </li>
      </ul>
    </div>
  );
}
