import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths';
import { ActivityIcon, CalendarIcon, HomeIcon, UserIcon } from '@/components/ui/icons';
import { cn } from '@/utils/cn';

/**
 * Icons on one line whatever the labels: a Basque or Catalan label of two lines ("Nire
 * erabiltzailea") grows downwards instead of pushing its icon up (review #16).
 */
const item =
  'flex min-h-14 w-full flex-col items-center justify-start gap-0.5 rounded-xl px-0.5 py-1 text-center text-xs leading-tight font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink';

function BarLink({ to, icon, label }: { to: string; icon: ReactNode; label: string }) {
  return (
    <NavLink
      to={to}
      className={({ isActive }) =>
        cn(
          item,
          isActive
            ? 'text-primary-ink'
            : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800',
        )
      }
    >
      {icon}
      <span className="line-clamp-2 max-w-full break-words hyphens-auto">{label}</span>
    </NavLink>
  );
}

/** Spec §2: the mobile bar of a signed-in customer; Calendar exists but is not available yet. */
export function BottomBar() {
  const { t } = useTranslation();
  return (
    <nav
      aria-label={t('nav.mainLabel')}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-gray-200 bg-white pb-[env(safe-area-inset-bottom)] md:hidden print:hidden dark:border-gray-800 dark:bg-gray-900"
    >
      <ul className="mx-auto grid max-w-md grid-cols-4 gap-1 px-2 py-1">
        <li>
          <BarLink to={paths.home} icon={<HomeIcon />} label={t('nav.home')} />
        </li>
        <li>
          <BarLink to={paths.myActivity} icon={<ActivityIcon />} label={t('nav.myActivity')} />
        </li>
        <li>
          <button
            type="button"
            aria-disabled="true"
            aria-describedby="calendar-coming-soon"
            className={cn(item, 'cursor-not-allowed text-gray-500 dark:text-gray-400')}
          >
            <CalendarIcon />
            <span className="line-clamp-2 max-w-full break-words hyphens-auto">
              {t('nav.calendar')}
            </span>
            <span id="calendar-coming-soon" className="sr-only">
              {t('nav.comingSoon')}
            </span>
          </button>
        </li>
        <li>
          <BarLink to={paths.userProfile} icon={<UserIcon />} label={t('nav.myUser')} />
        </li>
      </ul>
    </nav>
  );
}
