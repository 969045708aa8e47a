import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import {
  AlertIcon,
  CalculatorIcon,
  CardIcon,
  ContractIcon,
  DocumentIcon,
} from '@/components/ui/icons';
import { OptionTile } from '@/components/ui/option-tile';
import { Skeleton } from '@/components/ui/skeleton';
import {
  cardClasses,
  pageClasses,
  pageTitleClasses,
  sectionTitleClasses,
} from '@/components/ui/surfaces';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useVisualConfig } from '@/lib/visual-config';
import { endSession } from '@/lib/session';
import { cn } from '@/utils/cn';
import { useFiscalDataRequests } from '../api/get-fiscal-data-requests';
import { type UserProfile, useUserProfile } from '../api/get-user-profile';
import { FiscalRequestStatus } from './fiscal-request-status';
import { formatEntryDate, initialsOf } from '../format';

/**
 * Spec §2 "Profile": fiscal, contact and billing data of `/user/profile/{user.id}`, and the
 * additional options (invoices, payments; contracts and budgets not available yet).
 */
export function ProfileScreen() {
  const { t } = useTranslation('auth');
  const { user } = useAuth();
  const profile = useUserProfile(user?.id ?? '');
  const error = profile.error;
  useFreshDataAfterApproval(profile);

  // Spec §6: on the profile a 401 or 403 clears the auth and goes to /login.
  useEffect(() => {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) endSession();
  }, [error]);

  return (
    <div className={pageClasses}>
      <h1 className={pageTitleClasses}>{t('profile.title')}</h1>
      <div className="mt-6">
        {profile.data ? (
          <ProfileData profile={profile.data} />
        ) : profile.isError ? (
          <LoadError onRetry={() => void profile.refetch()} retrying={profile.isFetching} />
        ) : (
          <ProfileSkeleton />
        )}
      </div>
      <SignInSection hasPassword={profile.data?.has_password} />
      <AdditionalOptions />
    </div>
  );
}

/**
 * A fiscal data change approved after the profile was loaded: the profile is loaded again, once
 * per decision, so the card shows the data the outcome speaks of.
 */
function useFreshDataAfterApproval(profile: { dataUpdatedAt: number; refetch: () => unknown }) {
  const decision = useFiscalDataRequests().data?.last_decision;
  const refreshedFor = useRef<string | null>(null);
  const { dataUpdatedAt, refetch } = profile;
  useEffect(() => {
    if (decision?.status !== 'approved' || !decision.closed_at || !dataUpdatedAt) return;
    if (refreshedFor.current === decision.id) return;
    if (Date.parse(decision.closed_at) <= dataUpdatedAt) return;
    refreshedFor.current = decision.id;
    void refetch();
  }, [decision, dataUpdatedAt, refetch]);
}

function LoadError({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  const { t } = useTranslation('auth');
  return (
    <div
      role="alert"
      className={cn(cardClasses, 'flex flex-col items-center gap-4 p-6 text-center')}
    >
      <AlertIcon className="size-8 text-red-700 dark:text-red-300" />
      <p className="font-medium text-gray-900 dark:text-gray-50">{t('profile.loadError')}</p>
      <Button variant="secondary" onClick={onRetry} disabled={retrying}>
        {t('profile.retry')}
      </Button>
    </div>
  );
}

function ProfileSkeleton() {
  const { t } = useTranslation('auth');
  return (
    <div aria-busy="true">
      <p role="status" className="sr-only">
        {t('profile.loading')}
      </p>
      <div className={cn(cardClasses, 'flex items-center gap-4 p-5')}>
        <span className="size-16 shrink-0 overflow-hidden rounded-full">
          <Skeleton className="size-full" />
        </span>
        <div className="flex-1 space-y-2">
          <Skeleton className="h-6 w-48 max-w-full" />
          <Skeleton className="h-4 w-36 max-w-full" />
          <Skeleton className="h-4 w-32 max-w-full" />
        </div>
      </div>
      <div className="mt-6 grid items-start gap-6 lg:grid-cols-3">
        {[5, 3, 7].map((rows, card) => (
          <div key={card} className={cn(cardClasses, 'space-y-4 p-5')}>
            <Skeleton className="h-6 w-40" />
            {Array.from({ length: rows }, (_, row) => (
              <div key={row} className="space-y-1.5">
                <Skeleton className="h-3 w-24" />
                <Skeleton className="h-4 w-full" />
              </div>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}

type Item = { label: string; value: string | null | undefined };

function DataSection({
  title,
  items,
  editTo,
  action,
  children,
}: {
  title: string;
  items: Item[];
  /** Where the customer changes these data (the contact data screen), if they may. */
  editTo?: string;
  /** Another way to act on these data, beside the title (the fiscal data's change request). */
  action?: ReactNode;
  /** What follows the data (the fiscal data's request and its outcome). */
  children?: ReactNode;
}) {
  const { t } = useTranslation('auth');
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={cn(cardClasses, 'p-5')}>
      <div className="flex min-h-11 items-center justify-between gap-3">
        <h2 id={headingId} className={sectionTitleClasses}>
          {title}
        </h2>
        {editTo && (
          <Link
            to={editTo}
            aria-label={t('profile.editContact')}
            className={buttonClasses('secondary', 'min-h-11 shrink-0 px-4')}
          >
            {t('profile.edit')}
          </Link>
        )}
        {action}
      </div>
      <dl className="mt-4 space-y-3.5">
        {items.map(({ label, value }) => (
          <div key={label}>
            <dt className="text-sm text-gray-600 dark:text-gray-300">{label}</dt>
            <dd
              className={cn(
                'mt-0.5 break-words',
                value?.trim()
                  ? 'font-medium text-gray-900 dark:text-gray-50'
                  : 'text-gray-600 italic dark:text-gray-300',
              )}
            >
              {value?.trim() || t('profile.notProvided')}
            </dd>
          </div>
        ))}
      </dl>
      {children}
    </section>
  );
}

function ProfileData({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation('auth');
  const fullName = [profile.name, profile.lastName].filter((part) => part?.trim()).join(' ');
  const entryDate = formatEntryDate(profile.entry_date);
  // Spec §3: the country defaults to Spain.
  const country = (value: string) => value?.trim() || t('profile.defaultCountry');
  // Issue 23: fiscal data changes are requests the organisation reviews.
  const fiscal = useFiscalDataRequests();
  return (
    <>
      <section
        aria-label={fullName || profile.email}
        className={cn(cardClasses, 'flex items-center gap-4 p-5')}
      >
        <span
          aria-hidden="true"
          className="grid size-16 shrink-0 place-items-center rounded-full bg-primary-fill text-xl font-bold text-on-primary"
        >
          {initialsOf(fullName || profile.email)}
        </span>
        <div className="min-w-0">
          <p className="text-xl font-semibold break-words text-gray-900 dark:text-gray-50">
            {fullName || profile.email}
          </p>
          <dl className="mt-1 grid gap-x-6 gap-y-0.5 text-sm text-gray-700 sm:flex dark:text-gray-300">
            <Pair label={t('profile.userCode')}>{profile.client_id}</Pair>
            {entryDate && <Pair label={t('profile.registrationDate')}>{entryDate}</Pair>}
          </dl>
        </div>
      </section>
      <div className="mt-6 grid items-start gap-6 lg:grid-cols-3">
        <DataSection
          title={t('profile.sections.fiscal')}
          action={<FiscalChangeLink pending={fiscal.data?.pending} />}
          items={[
            { label: t('profile.fields.businessName'), value: profile.invoice_name || fullName },
            { label: t('profile.fields.nif'), value: profile.nif },
            { label: t('profile.fields.address'), value: profile.address },
            { label: t('profile.fields.city'), value: profile.city },
            { label: t('profile.fields.country'), value: country(profile.country) },
          ]}
        >
          <FiscalRequestStatus
            state={fiscal.data}
            loadFailed={fiscal.isError}
            onRetry={() => void fiscal.refetch()}
          />
        </DataSection>
        <DataSection
          title={t('profile.sections.contact')}
          editTo={paths.contactData}
          items={[
            { label: t('profile.fields.contactName'), value: profile.contact_name },
            { label: t('profile.fields.email'), value: profile.email },
            { label: t('profile.fields.phone'), value: profile.phone },
          ]}
        />
        <DataSection
          title={t('profile.sections.billing')}
          editTo={paths.contactData}
          items={[
            { label: t('profile.fields.invoiceEmail'), value: profile.invoice_email },
            { label: t('profile.fields.paymentMethod'), value: profile.forma_pago },
            { label: t('profile.fields.shippingAddress'), value: profile.shipping_address },
            { label: t('profile.fields.postalCode'), value: profile.shipping_cp },
            { label: t('profile.fields.city'), value: profile.shipping_city },
            { label: t('profile.fields.province'), value: profile.shipping_province },
            { label: t('profile.fields.country'), value: country(profile.shipping_country) },
          ]}
        />
      </div>
    </>
  );
}

/** "Solicitar cambio": while a request waits, the card shows it instead (one at a time). */
function FiscalChangeLink({ pending }: { pending: unknown }) {
  const { t } = useTranslation('fiscal-data');
  if (pending) return null;
  return (
    <Link
      to={paths.fiscalData}
      aria-label={t('card.requestLabel')}
      className={buttonClasses('secondary', 'min-h-11 shrink-0 px-4')}
    >
      {t('card.request')}
    </Link>
  );
}

function Pair({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-1">
      <dt>{label}:</dt>
      <dd className="font-medium text-gray-900 dark:text-gray-50">{children}</dd>
    </div>
  );
}

/**
 * How the customer signs in: the password can be changed here (review #13), and the places where
 * they are signed in seen and ended (issue 24).
 */
function SignInSection({ hasPassword }: { hasPassword: boolean | undefined }) {
  const { t } = useTranslation('auth');
  const { user } = useAuth();
  const { secondFactor, passkeys } = useVisualConfig();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={cn(cardClasses, 'mt-6 p-5')}>
      <h2 id={headingId} className={sectionTitleClasses}>
        {t('profile.sections.security')}
      </h2>
      <ul className="mt-2 divide-y divide-gray-200 dark:divide-gray-700">
        {hasPassword === false ? (
          <AccessRow note={t('profile.createPasswordNote')} to={paths.changePassword}>
            {t('profile.createPassword')}
          </AccessRow>
        ) : (
          <AccessRow note={t('profile.passwordNote')} to={paths.changePassword}>
            {t('profile.changePassword')}
          </AccessRow>
        )}
        <AccessRow
          note={t('profile.changeEmailNote', { email: user?.email ?? '' })}
          to={paths.changeEmail}
        >
          {t('profile.changeEmail')}
        </AccessRow>
        {passkeys && (
          <AccessRow note={t('profile.passkeysNote')} to={paths.passkeys}>
            {t('profile.passkeys')}
          </AccessRow>
        )}
        {secondFactor !== 'off' && (
          <AccessRow note={t('profile.twoFactorNote')} to={paths.twoFactor}>
            {t('profile.twoFactor')}
          </AccessRow>
        )}
        <AccessRow note={t('profile.devicesNote')} to={paths.devices}>
          {t('profile.devices')}
        </AccessRow>
      </ul>
    </section>
  );
}

function AccessRow({ note, to, children }: { note: string; to: string; children: ReactNode }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3 last:pb-0">
      <p className="min-w-0 flex-1 basis-60 text-sm break-words text-gray-600 dark:text-gray-300">
        {note}
      </p>
      <Link to={to} className={buttonClasses('secondary', 'min-h-11')}>
        {children}
      </Link>
    </li>
  );
}

function AdditionalOptions() {
  const { t } = useTranslation('auth');
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className={sectionTitleClasses}>
        {t('profile.sections.options')}
      </h2>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
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
    </section>
  );
}
