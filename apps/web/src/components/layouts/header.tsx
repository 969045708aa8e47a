import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { paths } from '@/config/paths';
import { CompanyLogo } from '@/components/ui/company-logo';
import { BackIcon, BellIcon, MenuIcon, UserIcon } from '@/components/ui/icons';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { focusRing, iconButton, iconButtonBase } from './layout-classes';

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
    'rounded-lg px-3 py-2 text-sm font-medium',
    isActive
      ? 'text-primary-ink underline decoration-2 underline-offset-8'
      : 'text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800',
    focusRing,
  );

/**
 * Spec §2 "Layout": back link (where the screen has a back target), the company, and the bell and
 * menu button; from `md` up also Home, My activity and the profile button.
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

  return (
    <header className="sticky top-0 z-30 border-b border-gray-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80 print:hidden dark:border-gray-800 dark:bg-gray-900/95 dark:supports-[backdrop-filter]:bg-gray-900/80">
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
          <nav aria-label={t('nav.mainLabel')} className="ms-4 hidden items-center gap-1 md:flex">
            <NavLink to={paths.home} className={desktopLink}>
              {t('nav.home')}
            </NavLink>
            <NavLink to={paths.myActivity} className={desktopLink}>
              {t('nav.myActivity')}
            </NavLink>
          </nav>
        )}

        <div className="ms-auto flex items-center gap-1">
          {isSignedIn && (
            <Link
              to={paths.notifications}
              className={iconButton}
              aria-label={t('nav.notifications')}
            >
              <BellIcon />
            </Link>
          )}
          <button
            ref={menuButtonRef}
            type="button"
            className={iconButton}
            aria-label={t('nav.openMenu')}
            aria-haspopup="dialog"
            aria-expanded={isMenuOpen}
            aria-controls={menuId}
            onClick={onOpenMenu}
          >
            <MenuIcon />
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
