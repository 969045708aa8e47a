import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { AlertIcon, LockIcon, SearchIcon } from '@/components/ui/icons';
import type { ErrorKind } from './error-kind';

const icons = { general: AlertIcon, notFound: SearchIcon, accessDenied: LockIcon };

/** The error screens of spec §2, each with its back-to-home button to /home. */
export function ErrorView({ kind }: { kind: ErrorKind }) {
  const { t } = useTranslation();
  const Icon = icons[kind];
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-6 py-16 text-center">
      <span className="mb-6 grid size-16 place-items-center rounded-full bg-primary-100 text-primary-800 dark:bg-gray-800 dark:text-primary-ink">
        <Icon className="size-8" />
      </span>
      <h1 className="text-2xl font-bold text-gray-900 dark:text-gray-50">
        {t(`errors.${kind}.title`)}
      </h1>
      <p className="mt-3 text-gray-700 dark:text-gray-300">{t(`errors.${kind}.description`)}</p>
      <Link to={paths.home} className={buttonClasses('primary', 'mt-8')}>
        {t('errors.backToHome')}
      </Link>
    </div>
  );
}
