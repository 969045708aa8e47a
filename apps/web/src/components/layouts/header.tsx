import type { Ref } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link, NavLink } from 'react-router';
import { paths } from '@/config/paths';
import { CompanyLogo } from '@/components/ui/company-logo';
import { BackIcon, BellIcon, MenuIcon, UserIcon } from '@/components/ui/icons';
import { apiRequest } from '@/lib/api-client';
import { createUnreadCount } from '@/lib/unread-count';
import { unreadThreads } from '@/lib/unread-threads';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { focusRing, iconButton, iconButtonBase } from './layout-classes';
import { TestModeBanner } from './test-mode-banner';

type HeaderProps = {
  isSignedIn: boolean;
  backTo: string | undefined;
  isMenuOpen: boolean;
  menuId: string;
  menuButtonRef: Ref<HTMLButtonElement>;
  onOpenMenu: () => void;
};

const desktopLink = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap',
    isActive
      ? 'text-primary-ink underline decoration-2 underline-offset-8'
      : 'text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800',
    focusRing,
  );

/**
 * Spec §2 "Layout": back link (where the screen has a back target), the company, and the bell and
 * menu button; from `md` up also Home, Invoices, Payments (PRODUCT.md "Screens": the two main
 * features one click away), My activity and the profile button.
 */
export function Header({
  isSignedIn,
  backTo,
  isMenuOpen,
  menuId,
  menuButtonRef,
  onOpenMenu,
}: HeaderProps) {
  const { t } = useTranslation();
  const { companyName, logoUrl } = useVisualConfig();
  const unreadThreadCount = unreadThreads.useCount({ active: isSignedIn });

  return (
    <header className="sticky top-0 z-30 border-b border-gray-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80 print:hidden dark:border-gray-800 dark:bg-gray-900/95 dark:supports-[backdrop-filter]:bg-gray-900/80">
      <TestModeBanner />
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-1 px-2 sm:px-4">
        {backTo && (
          <Link to={backTo} className={iconButton} aria-label={t('nav.back')}>
            <BackIcon />
          </Link>
        )}
        <Link
          to={paths.root}
          className={cn('flex min-w-0 items-center gap-2 rounded-xl p-1 pe-2', focusRing)}
          aria-label={t('nav.goToStart', { company: companyName })}
        >
          <CompanyLogo src={logoUrl} className="size-9 shrink-0 rounded-lg" />
          <span className="truncate text-base font-semibold text-gray-900 dark:text-gray-50">
            {companyName}
          </span>
        </Link>

        {isSignedIn && (
          <nav
            aria-label={t('nav.mainLabel')}
            className="ms-4 hidden shrink-0 items-center gap-1 whitespace-nowrap md:flex"
          >
            <NavLink to={paths.home} className={desktopLink}>
              {t('nav.home')}
            </NavLink>
            <NavLink to={paths.invoices} className={desktopLink}>
              {t('nav.invoices')}
            </NavLink>
            <NavLink to={paths.payments} className={desktopLink}>
              {t('nav.payments')}
            </NavLink>
            <NavLink to={paths.myActivity} className={desktopLink}>
              {t('nav.myActivity')}
            </NavLink>
          </nav>
        )}

        <div className="ms-auto flex items-center gap-1">
          {isSignedIn && <NotificationsBell />}
          <button
            ref={menuButtonRef}
            type="button"
            className={cn(iconButton, 'relative')}
            aria-label={
              unreadThreadCount > 0
                ? t('nav.openMenuUnreadThreads', { count: unreadThreadCount })
                : t('nav.openMenu')
            }
            aria-haspopup="dialog"
            aria-expanded={isMenuOpen}
            aria-controls={menuId}
            onClick={onOpenMenu}
          >
            <MenuIcon />
            {/* "Mis consultas", in the menu, has an unread answer (its count is there). */}
            {unreadThreadCount > 0 && (
              <span
                aria-hidden="true"
                className="absolute top-2 right-2 size-2.5 rounded-full bg-red-700 ring-2 ring-white dark:bg-red-500 dark:ring-gray-900"
              />
            )}
          </button>
          {isSignedIn && (
            <Link
              to={paths.userProfile}
              className={cn(iconButtonBase, 'hidden md:inline-flex')}
              aria-label={t('nav.profile')}
            >
              <UserIcon />
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}

// ---- The bell's unread count ----
// Asks `GET /notifications/unread-count` only while a bell is shown, that is while signed in.

/** How often a shown bell asks again; also on window focus and after reading or deleting. */
export const unreadRefreshMs = 60_000;

const unreadNotifications = createUnreadCount(
  async (signal) => (await apiRequest('unreadNotifications', signal ? { signal } : {})).unread,
);

/** Gives the bell a count the server just answered (the notification list carries it too). */
export const setUnreadNotifications = unreadNotifications.set;

/** Asks the server for the count again: after notifications were read or deleted. */
export const refreshUnreadNotifications = unreadNotifications.refresh;

/** The bell: a link to the inbox whose name says how many are unread; a badge when any are. */
function NotificationsBell() {
  const { t } = useTranslation();
  const count = unreadNotifications.useCount({ active: true, pollMs: unreadRefreshMs });
  // In `common`: the header shows on every screen, before any screen's own texts are loaded.
  const label = count > 0 ? t('nav.notificationsUnread', { count }) : t('nav.notifications');
  return (
    <Link to={paths.notifications} className={cn(iconButton, 'relative')} aria-label={label}>
      <BellIcon />
      {count > 0 && (
        <span
          aria-hidden="true"
          className="absolute top-1 right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-700 px-1 text-[0.6875rem] leading-none font-bold text-white tabular-nums ring-2 ring-white dark:bg-red-500 dark:text-gray-950 dark:ring-gray-900"
        >
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
