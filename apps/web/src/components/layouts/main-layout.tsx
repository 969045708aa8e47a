import { type ReactNode, useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { useMatches } from 'react-router';
import { useIsSignedIn } from '@/lib/auth';
import { HydrateLater } from '@/components/hydrate-later';
import { cn } from '@/utils/cn';
import { BottomBar } from './bottom-bar';
import { Header } from './header';
import { SideMenu, type SideMenuVariant } from './side-menu';

/** What a route tells the layout through its `handle`. */
export type RouteHandle = {
  /** Spec §2 "back target": the header shows a back link to it. */
  backTo?: string;
  /** A focused task (the payment confirmation): no mobile bottom bar over it (review #5). */
  hideBottomBar?: boolean;
};

function useBackTarget(): string | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const backTo = (matches[i]?.handle as RouteHandle | undefined)?.backTo;
    if (backTo) return backTo;
  }
  return undefined;
}

function useHidesBottomBar(): boolean {
  return useMatches().some((match) => (match.handle as RouteHandle | undefined)?.hideBottomBar);
}

type MainLayoutProps = { variant?: SideMenuVariant; children: ReactNode };

/** Header, content, mobile bottom bar (signed in) and the side menu: spec §2 "Layout". */
export function MainLayout({ variant = 'app', children }: MainLayoutProps) {
  const { t } = useTranslation();
  const isSignedIn = useIsSignedIn();
  const backTo = useBackTarget();
  const hidesBottomBar = useHidesBottomBar();
  const showBottomBar = isSignedIn && !hidesBottomBar;
  const [isMenuOpen, setMenuOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const closeMenu = useCallback(() => setMenuOpen(false), []);

  return (
    <>
      <div inert={isMenuOpen} className="flex min-h-dvh flex-col">
        <a
          href="#main-content"
          className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-primary-ink focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:outline-2 focus:outline-primary-ink dark:bg-gray-800"
        >
          {t('app.skipToContent')}
        </a>
        <HydrateLater name="header">
          <Header
            isSignedIn={isSignedIn}
            backTo={backTo}
            isMenuOpen={isMenuOpen}
            menuId={menuId}
            menuButtonRef={menuButtonRef}
            onOpenMenu={() => setMenuOpen(true)}
          />
        </HydrateLater>
        <main
          id="main-content"
          tabIndex={-1}
          className={cn('flex-1 focus:outline-none', showBottomBar && 'pb-20 md:pb-0 print:pb-0')}
        >
          <HydrateLater name="screen">{children}</HydrateLater>
        </main>
        {showBottomBar && <BottomBar />}
      </div>
      {/* One element around the menu's two, for its turn (HydrateLater); its own box is empty. */}
      <HydrateLater name="side-menu">
        <div>
          <SideMenu
            id={menuId}
            open={isMenuOpen}
            onClose={closeMenu}
            isSignedIn={isSignedIn}
            variant={variant}
            returnFocusRef={menuButtonRef}
          />
        </div>
      </HydrateLater>
    </>
  );
}
