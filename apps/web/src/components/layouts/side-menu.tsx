import {
  type ReactNode,
  type RefObject,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import {
  BellIcon,
  BugIcon,
  BuildingIcon,
  CardIcon,
  CloseIcon,
  CookieIcon,
  DocumentIcon,
  DownloadIcon,
  GlobeIcon,
  AccessibilityIcon,
  LockIcon,
  LoginIcon,
  LogoutIcon,
  MailIcon,
  MoonIcon,
  ShieldIcon,
} from '@/components/ui/icons';
import { Switch } from '@/components/ui/switch';
import { useModal } from '@/components/ui/use-modal';
import { useLogout } from '@/lib/auth';
import { languageNames, toLanguage } from '@/lib/i18n';
import { readStorage, storageKeys, writeStorage } from '@/lib/storage';
import { unreadThreads } from '@/lib/unread-threads';
import { useTheme } from '@/lib/theme';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { CompanyDialog } from './company-dialog';
import { LanguageDialog } from './language-dialog';

export type SideMenuVariant = 'app' | 'public';

type SideMenuProps = {
  id: string;
  open: boolean;
  onClose: () => void;
  isSignedIn: boolean;
  /** `public`: the sign-in screen itself, where a Login entry would lead nowhere (spec §2). */
  variant: SideMenuVariant;
  returnFocusRef: RefObject<HTMLElement | null>;
};

const row =
  'flex min-h-11 w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink';
const activeRow = cn(
  row,
  'text-gray-800 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-700',
);
const icon = 'size-5 shrink-0 text-gray-600 dark:text-gray-300';
/** The colours of the header bell's badge. */
const countBadge =
  'flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-red-700 px-1.5 text-[0.6875rem] leading-none font-bold text-white tabular-nums dark:bg-red-500 dark:text-gray-950';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="py-2">
      <h3
        id={headingId}
        className="px-3 pb-1 text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400"
      >
        {title}
      </h3>
      <ul className="space-y-0.5">{children}</ul>
    </section>
  );
}

function MenuLink({
  to,
  label,
  icon: Icon,
  onNavigate,
  badge,
}: {
  to: string;
  label: string;
  icon: ReactNode;
  onNavigate: () => void;
  /** A count shown beside the label; its `name` says it in words (the badge is only seen). */
  badge?: { count: number; name: string } | undefined;
}) {
  const hasBadge = badge !== undefined && badge.count > 0;
  return (
    <li>
      <Link
        to={to}
        className={activeRow}
        onClick={onNavigate}
        aria-label={hasBadge ? badge.name : undefined}
      >
        {Icon}
        <span className="flex-1">{label}</span>
        {hasBadge && (
          <span aria-hidden="true" className={countBadge}>
            {badge.count > 99 ? '99+' : badge.count}
          </span>
        )}
      </Link>
    </li>
  );
}

function MenuButton({
  label,
  icon: Icon,
  detail,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  detail?: string;
  onClick: () => void;
}) {
  return (
    <li>
      <button type="button" className={activeRow} onClick={onClick} aria-haspopup="dialog">
        {Icon}
        <span className="flex-1">{label}</span>
        {detail && <span className="text-xs text-gray-600 dark:text-gray-300">{detail}</span>}
      </button>
    </li>
  );
}

// The testing toggle's stored choice. Off on the server: a prerendered page (/login) hydrates
// as the server rendered it, then shows the stored choice.
const failingListeners = new Set<() => void>();
const readFailing = () => readStorage(storageKeys.testingPaymentFails) === 'true';
function subscribeFailing(listener: () => void): () => void {
  failingListeners.add(listener);
  return () => failingListeners.delete(listener);
}

/** Spec §2 "Side menu": slides in from the right, 14 rem (w-56) wide, modal while open. */
export function SideMenu({
  id,
  open,
  onClose,
  isSignedIn,
  variant,
  returnFocusRef,
}: SideMenuProps) {
  const { t, i18n } = useTranslation();
  // Spec §2: the testing toggle exists only while the tenant pays through the local simulator,
  // and only for a signed-in customer (review #28).
  const { testingMode } = useVisualConfig();
  const panelRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const [theme, setTheme] = useTheme();
  const logout = useLogout();
  const [dialog, setDialog] = useState<'language' | 'company' | null>(null);
  const isPaymentFailing = useSyncExternalStore(subscribeFailing, readFailing, () => false);
  // Asked again each time the menu opens (the header's dot keeps it known in between).
  const unreadThreadCount = unreadThreads.useCount({ active: isSignedIn, askAgain: open });
  useModal(panelRef, open, onClose, { returnFocusRef });

  const setFailing = (value: boolean) => {
    writeStorage(storageKeys.testingPaymentFails, String(value));
    for (const listener of failingListeners) listener();
  };

  return (
    <>
      <div
        aria-hidden="true"
        onClick={onClose}
        className={cn(
          'fixed inset-0 z-40 bg-gray-950/50 transition-opacity duration-200 motion-reduce:transition-none',
          open ? 'opacity-100' : 'pointer-events-none opacity-0',
        )}
      />
      <div
        ref={panelRef}
        id={id}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        inert={!open}
        className={cn(
          'fixed inset-y-0 right-0 z-40 flex w-56 flex-col bg-white text-gray-900 shadow-2xl duration-200 focus:outline-none motion-reduce:transition-none dark:bg-gray-800 dark:text-gray-100',
          // Visible at once on opening (focus can move in), hidden only after sliding out.
          open
            ? 'visible translate-x-0 transition-[translate]'
            : 'invisible translate-x-full transition-[translate,visibility]',
        )}
      >
        <div className="flex items-center justify-between border-b border-gray-200 py-2 ps-4 pe-2 dark:border-gray-700">
          <h2 id={titleId} className="text-base font-semibold">
            {t('menu.title')}
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label={t('menu.close')}
            className="inline-flex size-11 items-center justify-center rounded-lg text-gray-600 hover:bg-gray-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink dark:text-gray-300 dark:hover:bg-gray-700"
          >
            <CloseIcon className="size-5" />
          </button>
        </div>

        <nav
          aria-label={t('menu.title')}
          className="flex-1 divide-y divide-gray-200 overflow-y-auto px-1 dark:divide-gray-700"
        >
          {isSignedIn && (
            <Section title={t('menu.sections.options')}>
              <MenuLink
                to={paths.invoices}
                label={t('menu.invoices')}
                icon={<DocumentIcon className={icon} />}
                onNavigate={onClose}
              />
              <MenuLink
                to={paths.payments}
                label={t('menu.payments')}
                icon={<CardIcon className={icon} />}
                onNavigate={onClose}
              />
              <MenuLink
                to={paths.documents}
                label={t('menu.documents')}
                icon={<DownloadIcon className={icon} />}
                onNavigate={onClose}
              />
              <MenuLink
                to={paths.notifications}
                label={t('menu.notifications')}
                icon={<BellIcon className={icon} />}
                onNavigate={onClose}
              />
              <MenuLink
                to={paths.paymentMethods}
                label={t('menu.paymentMethods')}
                icon={<CardIcon className={icon} />}
                onNavigate={onClose}
              />
              <MenuButton
                label={t('menu.company')}
                icon={<BuildingIcon className={icon} />}
                onClick={() => setDialog('company')}
              />
            </Section>
          )}

          <Section title={t('menu.sections.preferences')}>
            <MenuButton
              label={t('menu.language')}
              detail={languageNames[toLanguage(i18n.resolvedLanguage ?? i18n.language)]}
              icon={<GlobeIcon className={icon} />}
              onClick={() => setDialog('language')}
            />
            <li>
              <Switch
                checked={theme === 'dark'}
                onChange={(dark) => setTheme(dark ? 'dark' : 'light')}
                label={t('menu.darkMode')}
                icon={<MoonIcon className={icon} />}
              />
            </li>
            <MenuLink
              to={paths.cookies}
              label={t('menu.cookies')}
              icon={<CookieIcon className={icon} />}
              onNavigate={onClose}
            />
          </Section>

          {/* The spec's disabled FAQ entry is left out: no placeholders (PRODUCT.md "Screens"). */}
          <Section title={t('menu.sections.help')}>
            <MenuLink
              to={paths.contact}
              label={t('menu.contact')}
              icon={<MailIcon className={icon} />}
              onNavigate={onClose}
            />
            {isSignedIn && (
              <MenuLink
                to={paths.invoiceThreads}
                label={t('menu.invoiceThreads')}
                icon={<MailIcon className={icon} />}
                onNavigate={onClose}
                badge={{
                  count: unreadThreadCount,
                  name: t('menu.invoiceThreadsUnread', { count: unreadThreadCount }),
                }}
              />
            )}
          </Section>

          <Section title={t('menu.sections.legal')}>
            <MenuLink
              to={paths.security}
              label={t('menu.security')}
              icon={<ShieldIcon className={icon} />}
              onNavigate={onClose}
            />
            <MenuLink
              to={paths.privacy}
              label={t('menu.privacy')}
              icon={<LockIcon className={icon} />}
              onNavigate={onClose}
            />
            <MenuLink
              to={paths.accessibility}
              label={t('menu.accessibility')}
              icon={<AccessibilityIcon className={icon} />}
              onNavigate={onClose}
            />
          </Section>

          {/* Only for a signed-in customer, who can pay (review #28): not on the public pages. */}
          {isSignedIn && testingMode && (
            <Section title={t('menu.sections.testing')}>
              <li>
                <Switch
                  checked={isPaymentFailing}
                  onChange={setFailing}
                  label={t('menu.simulatePaymentFailure')}
                  icon={<BugIcon className={icon} />}
                />
              </li>
            </Section>
          )}
        </nav>

        {(isSignedIn || variant === 'app') && (
          <div className="border-t border-gray-200 p-2 dark:border-gray-700">
            {isSignedIn ? (
              <button
                type="button"
                className={activeRow}
                onClick={() => {
                  onClose();
                  void logout();
                }}
              >
                <LogoutIcon className={icon} />
                <span className="flex-1">{t('menu.logout')}</span>
              </button>
            ) : (
              <Link to={paths.login} className={activeRow} onClick={onClose}>
                <LoginIcon className={icon} />
                <span className="flex-1">{t('menu.login')}</span>
              </Link>
            )}
          </div>
        )}
      </div>

      <LanguageDialog open={dialog === 'language'} onClose={() => setDialog(null)} />
      {isSignedIn && <CompanyDialog open={dialog === 'company'} onClose={() => setDialog(null)} />}
    </>
  );
}
