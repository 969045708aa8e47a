import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { pageClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { useAuth } from '@/lib/auth';
import { CompanySection } from './company-section';
import { ManagementTiles } from './management-tiles';
import { Shortcuts } from './shortcuts';
import { Statistics } from './statistics';

/**
 * Spec §2 "Home": greeting, then what is owed (`hero`, composed by the route: the balance is its
 * own feature; PRODUCT.md "Screens" puts it first), the shortcuts, the previous month's summary,
 * the management tiles and the company card.
 */
export function HomeScreen({ hero }: { hero?: ReactNode }) {
  const { t } = useTranslation('invoices');
  const { user } = useAuth();
  // Spec §2: the user name, or the e-mail, or a default user label.
  const name = user?.name?.trim() || user?.email?.trim() || t('home.defaultUser');
  return (
    <div className={pageClasses}>
      <header>
        <h1 className={pageTitleClasses}>{t('home.greeting', { name })}</h1>
        <p className="mt-1 text-gray-700 dark:text-gray-300">{t('home.welcome')}</p>
      </header>
      <div className="mt-6 grid gap-6 lg:grid-cols-12">
        {hero && <div className="lg:col-span-12">{hero}</div>}
        <Shortcuts className="lg:col-span-6" />
        <Statistics className="lg:col-span-6" />
        <ManagementTiles className="lg:col-span-8" />
        <CompanySection className="lg:col-span-4" />
      </div>
    </div>
  );
}
