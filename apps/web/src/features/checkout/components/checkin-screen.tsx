import {
  type FormEvent,
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { maxPaymentIds } from '@portal/contract/payment-limits';
import { useTranslation } from '@/lib/use-translation';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertIcon, ChevronLeftIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { paymentStatusTones, StatusBadge } from '@/components/ui/status-badge';
import {
  cardClasses,
  pageClasses,
  pageTitleClasses,
  sectionTitleClasses,
} from '@/components/ui/surfaces';
import { formatDate } from '@/lib/dates';
import { getLanguage } from '@/lib/i18n';
import { formatAmount, formatAmountParam } from '@/lib/money';
import { readStorage, storageKeys } from '@/lib/storage';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import {
  type CheckoutPreview,
  previewErrorKind,
  type PreviewErrorKind,
  useCheckoutPreview,
} from '../api/get-checkout-preview';
import { useSavedCards } from '../api/get-saved-cards';
import { useInitPayment } from '../api/init-payment';
import {
  canAccept,
  type CheckinForm,
  emptyCheckinForm,
  initPaymentBody,
  resolveForm,
  type SavedCard,
} from '../utils/checkin-form';
import {
  checkinBackHref,
  type CheckinQueryError,
  type CheckinTarget,
  parseCheckinQuery,
} from '../utils/checkin-query';
import { formatDateTime } from '../utils/format';
import { type InitErrorKind, initErrorKind } from '../utils/init-error';
import { rememberPaymentId, rememberPaymentStart } from '../utils/payment-session';
import { BizumFields, CardFields, checkboxClasses, MethodFields } from './payment-method-fields';
import { Spinner } from '@/components/ui/spinner';

/** The saved-cards tab appears only when there are cards to choose (or while they load: none). */
const noSavedCards: readonly SavedCard[] = [];

/** The words of the back link: to the invoice, or to the list the payment was chosen from. */
function backLabelKey(href: string) {
  if (href === paths.payments) return 'checkin.backToPayments' as const;
  if (href === paths.invoices) return 'checkin.backToInvoices' as const;
  return 'checkin.backToInvoice' as const;
}

const linkClasses =
  'inline-flex min-h-11 items-center gap-1 rounded-xl pe-2 text-sm font-semibold text-primary-ink hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink';

/** A disabled CTA stays legible (review #25): solid grey, full-strength text, in both themes. */
const disabledCta =
  'disabled:bg-gray-200 disabled:text-gray-700 disabled:opacity-100 disabled:shadow-none dark:disabled:bg-gray-700 dark:disabled:text-gray-100';

/**
 * Spec §2 "Payment confirmation" (/payment-checkin?invoiceId=..&amount=.. or
 * ?payments=id1,id2&amount=..): what the server says is owed (never the address's amount), the
 * method and card already chosen (the card, the main saved card), the conditions, and "Accept and
 * continue", which starts the payment and hands the browser to the gateway.
 */
export function CheckinScreen() {
  const [search] = useSearchParams();
  const query = useMemo(() => parseCheckinQuery(search), [search]);
  if (!query.ok) return <InvalidCheckin errors={query.errors} />;
  return <CheckinView key={search.toString()} target={query.target} />;
}

/**
 * Spec §8: a confirmation opened without an invoice pays nothing; nor one with more instalments
 * than one payment takes, which says so.
 */
function InvalidCheckin({ errors }: { errors: CheckinQueryError[] }) {
  const { t } = useTranslation('checkout');
  return (
    <Problem title={t('checkin.invalid.title')}>
      <ul className="mt-3 space-y-2 text-gray-700 dark:text-gray-300">
        {errors.map((error) => (
          <li key={error}>
            <strong className="block font-semibold text-gray-900 dark:text-gray-50">
              {t(`errors.${error}`, { max: maxPaymentIds })}
            </strong>
            {t(`errors.details.${error}`, { max: maxPaymentIds })}
          </li>
        ))}
      </ul>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to={paths.invoices} className={buttonClasses('primary')}>
          {t('checkin.invalid.goToInvoices')}
        </Link>
        <Link to={paths.payments} className={buttonClasses('secondary')}>
          {t('checkin.invalid.goToPayments')}
        </Link>
      </div>
    </Problem>
  );
}

function Problem({
  title,
  tone = 'danger',
  children,
}: {
  title: string;
  tone?: 'danger' | 'info';
  children: ReactNode;
}) {
  return (
    <div className={pageClasses}>
      <div
        role="alert"
        className={cn(cardClasses, 'mx-auto flex max-w-lg flex-col items-center p-8 text-center')}
      >
        <span
          className={cn(
            'mb-5 grid size-16 place-items-center rounded-full',
            tone === 'danger'
              ? 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200'
              : 'bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100',
          )}
        >
          <AlertIcon className="size-8" />
        </span>
        <h1 className="text-xl font-bold text-gray-900 dark:text-gray-50">{title}</h1>
        {children}
      </div>
    </div>
  );
}

/** The server's preview first: nothing is shown as owed before it answers. */
function CheckinView({ target }: { target: CheckinTarget }) {
  const { t } = useTranslation('checkout');
  const preview = useCheckoutPreview(target);
  const backHref = checkinBackHref(target);
  // A refusal of the fresh answer wins over the total held from before: paid meanwhile (Back from
  // the gateway, another tab) or no longer the customer's, the held total offered a second payment
  // (session 39). Only a failure to get an answer falls back on it.
  const several =
    target.kind === 'payments' ? target.paymentIds.length > 1 : target.invoiceIds.length > 1;
  const refused = preview.isError && previewErrorKind(preview.error) !== 'failed';
  if (preview.data && !refused) {
    return <CheckinFormView target={target} preview={preview.data} onStale={preview.refetch} />;
  }
  if (preview.isError) {
    return (
      <PreviewProblem
        kind={previewErrorKind(preview.error, several)}
        backHref={backHref}
        onRetry={() => void preview.refetch()}
      />
    );
  }
  return (
    <div className={pageClasses} aria-busy="true">
      <h1 className={pageTitleClasses}>{t('checkin.title')}</h1>
      <p role="status" className="sr-only">
        {t('checkin.preview.loading')}
      </p>
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Skeleton className="h-48 rounded-2xl" />
        <Skeleton className="h-64 rounded-2xl lg:col-start-2 lg:row-start-1" />
      </div>
    </div>
  );
}

/** A stale tab (paid meanwhile), something that is not the customer's, or no answer. */
function PreviewProblem({
  kind,
  backHref,
  onRetry,
}: {
  kind: PreviewErrorKind;
  backHref: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation('checkout');
  return (
    <Problem
      title={t(`checkin.preview.${kind}.title`)}
      tone={kind === 'paid' || kind === 'partlyPaid' ? 'info' : 'danger'}
    >
      <p className="mt-3 text-gray-700 dark:text-gray-300">{t(`checkin.preview.${kind}.text`)}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {kind === 'failed' && <Button onClick={onRetry}>{t('checkin.preview.retry')}</Button>}
        <Link to={backHref} className={buttonClasses(kind === 'failed' ? 'secondary' : 'primary')}>
          {t(backLabelKey(backHref))}
        </Link>
        {backHref !== paths.payments && (
          <Link to={paths.payments} className={buttonClasses('secondary')}>
            {t('checkin.invalid.goToPayments')}
          </Link>
        )}
      </div>
    </Problem>
  );
}

function CheckinFormView({
  target,
  preview,
  onStale,
}: {
  target: CheckinTarget;
  preview: CheckoutPreview;
  onStale: () => unknown;
}) {
  const { t } = useTranslation('checkout');
  const savedCardsQuery = useSavedCards();
  const savedCards = savedCardsQuery.data?.cards ?? noSavedCards;
  const refetchSavedCards = savedCardsQuery.refetch;
  // Unknown (the list did not load) counts as room: the server decides, and saves none past the cap.
  const canSaveCard = savedCardsQuery.data?.roomForAnother ?? true;
  useEffect(() => {
    // Without the list the customer still pays with a new card; the failure is only logged.
    if (savedCardsQuery.error)
      console.error('Could not load the saved cards', savedCardsQuery.error);
  }, [savedCardsQuery.error]);
  const { testingMode } = useVisualConfig();
  const [changes, setChanges] = useState<CheckinForm>(emptyCheckinForm);
  const hintId = useId();
  const conditionsId = useId();
  const errorRef = useRef<HTMLDivElement>(null);
  const init = useInitPayment({ onStarted: (answer) => rememberPaymentId(answer.payment_id) });
  const { reset } = init;
  // Pending, then leaving for the gateway: the button keeps loading until the page is gone.
  const isStarting = init.isPending || init.isSuccess;
  const options = { availableMethods: preview.methods, savedCards, canSaveCard };
  // The conditions name the amount: ticked for another one (what is owed changed when the tab came
  // back into view, or the start was refused as amount_mismatch), they are not accepted, and one
  // more click charged an amount the customer never saw ticked (session 39).
  const [acceptedFor, setAcceptedFor] = useState<number | null>(null);
  const form = resolveForm(
    {
      ...changes,
      acceptedConditions: changes.acceptedConditions && acceptedFor === preview.amount,
    },
    options,
  );
  const isValid = canAccept(form, options);
  const isMissingSavedCard =
    form.method === 'credit_card' && form.cardSource === 'saved' && form.acceptedConditions;
  const backHref = checkinBackHref(target);
  const errorKind = init.isError ? initErrorKind(init.error) : null;

  // Coming back from the gateway with the browser's Back button restores this page as it was:
  // start over, and ask again what is owed (it may have been paid in the meantime).
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      reset();
      void onStale();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset, onStale]);

  // A refused start is brought into view, clear of the mobile bars, and read out (review #1).
  useEffect(() => {
    if (!errorKind) return;
    const element = errorRef.current;
    if (!element) return;
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    element.scrollIntoView?.({ block: 'center', behavior: reduce ? 'auto' : 'smooth' });
    element.focus({ preventScroll: true });
    // What is owed changed: show the new amount and instalments.
    if (errorKind === 'amountMismatch' || errorKind === 'notPayable') void onStale();
    // The card was removed meanwhile: offer only the cards still saved.
    if (errorKind === 'cardGone') void refetchSavedCards();
  }, [errorKind, onStale, refetchSavedCards]);

  const change = (patch: Partial<CheckinForm>) => {
    if (patch.acceptedConditions !== undefined)
      setAcceptedFor(patch.acceptedConditions ? preview.amount : null);
    setChanges((current) => ({ ...current, ...patch }));
  };

  // The new amount is on the screen: a refusal about the old one no longer says what to do.
  const shownAmount = useRef(preview.amount);
  const refused = init.isError;
  useEffect(() => {
    if (shownAmount.current === preview.amount) return;
    shownAmount.current = preview.amount;
    if (refused) reset();
  }, [preview.amount, refused, reset]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isValid || isStarting) return;
    rememberPaymentStart({
      invoice: target.kind === 'invoices' ? target.invoiceIds.join(',') : null,
      amount: formatAmountParam(preview.amount),
      saveNewCard: form.method === 'credit_card' && form.cardSource === 'new' && form.saveNewCard,
    });
    init.mutate(
      initPaymentBody({
        target,
        amount: preview.amount,
        form,
        language: getLanguage(),
        // Spec §2 side menu: the testing toggle makes the simulator decline (test mode only).
        simulateDecline: testingMode && readStorage(storageKeys.testingPaymentFails) === 'true',
      }),
    );
  };

  const total = formatAmount(preview.amount);
  return (
    <div className={pageClasses}>
      <Link to={backHref} className={cn(linkClasses, '-ms-1')}>
        <ChevronLeftIcon className="size-5" />
        {t(backLabelKey(backHref))}
      </Link>
      <h1 className={cn(pageTitleClasses, 'mt-2')}>{t('checkin.title')}</h1>

      <form
        noValidate
        onSubmit={submit}
        aria-busy={isStarting}
        className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]"
      >
        <Summary preview={preview} operation={init.data?.order_id ?? null} />

        <div className="min-w-0 space-y-6 lg:col-start-1 lg:row-start-1">
          <MethodFields
            form={form}
            onChange={change}
            disabled={isStarting}
            availableMethods={preview.methods}
          />
          {form.method === 'credit_card' && (
            <CardFields
              form={form}
              onChange={change}
              disabled={isStarting}
              savedCards={savedCards}
              canSaveCard={canSaveCard}
            />
          )}
          {form.method === 'bizum' && <BizumFields />}

          <section
            aria-labelledby={`${conditionsId}-title`}
            className={cn(cardClasses, 'p-4 sm:p-5')}
          >
            <h2 id={`${conditionsId}-title`} className={sectionTitleClasses}>
              {t('checkin.conditions.title')}
            </h2>
            <p
              id={`${conditionsId}-text`}
              className="mt-2 text-sm text-gray-700 dark:text-gray-300"
            >
              {t('checkin.conditions.text', { amount: total })}
            </p>
            <label className="mt-2 -mb-2 flex min-h-11 cursor-pointer items-center gap-3 py-2">
              <input
                type="checkbox"
                checked={form.acceptedConditions}
                onChange={(event) => change({ acceptedConditions: event.target.checked })}
                disabled={isStarting}
                aria-describedby={`${conditionsId}-text`}
                className={cn(checkboxClasses, 'mt-0')}
              />
              <span className="font-medium text-gray-900 dark:text-gray-50">
                {t('checkin.conditions.accept')}
              </span>
            </label>
          </section>

          <div className="space-y-3">
            <Button
              type="submit"
              disabled={!isValid || isStarting}
              aria-describedby={!isValid ? hintId : undefined}
              className={cn('w-full sm:w-auto sm:min-w-64', !isStarting && disabledCta)}
            >
              {isStarting && <Spinner size="md" tone="current" />}
              {isStarting ? (
                t('checkin.redirecting')
              ) : (
                <>
                  {t('checkin.accept')}
                  <span className="border-s border-current/40 ps-2 tabular-nums">{total}</span>
                </>
              )}
            </Button>
            {!isValid && !isStarting && (
              <p id={hintId} className="text-sm text-gray-600 dark:text-gray-300">
                {preview.methods.length === 0
                  ? t('errors.details.unavailable')
                  : isMissingSavedCard
                    ? t('checkin.card.chooseSavedCard')
                    : form.method
                      ? t('checkin.acceptConditionsHint')
                      : t('checkin.acceptHint')}
              </p>
            )}
            <p role="status" className="sr-only">
              {isStarting ? t('checkin.redirecting') : ''}
            </p>
            {errorKind && <InitError ref={errorRef} kind={errorKind} backHref={backHref} />}
          </div>
        </div>
      </form>
    </div>
  );
}

/**
 * Spec §2: the operation id (once the start gave one), the current date and time (Madrid, from
 * the server), what is paid (each instalment: invoice, due date, amount) and the total in euros.
 */
function Summary({ preview, operation }: { preview: CheckoutPreview; operation: string | null }) {
  const { t } = useTranslation('checkout');
  const id = useId();
  const invoices = new Set(preview.instalments.map((i) => i.invoice_id));
  return (
    <section
      aria-labelledby={id}
      className={cn(cardClasses, 'h-fit p-4 sm:p-5 lg:sticky lg:top-20 lg:col-start-2')}
    >
      <h2 id={id} className={sectionTitleClasses}>
        {t('checkin.summary.title')}
      </h2>
      <dl className="mt-3 space-y-3 text-sm">
        {operation && (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-gray-700 dark:text-gray-300">{t('checkin.summary.operation')}</dt>
            <dd className="font-semibold text-gray-900 tabular-nums dark:text-gray-50">
              {operation}
            </dd>
          </div>
        )}
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-gray-700 dark:text-gray-300">{t('checkin.summary.dateTime')}</dt>
          <dd className="font-semibold text-gray-900 tabular-nums dark:text-gray-50">
            {formatDateTime(preview.date, preview.time)}
          </dd>
        </div>
      </dl>
      <h3 className="mt-4 text-sm font-semibold text-gray-900 dark:text-gray-50">
        {invoices.size === 1
          ? t('checkin.summary.invoice')
          : t('checkin.summary.instalmentsCount', { count: preview.instalments.length })}
      </h3>
      <ul className="mt-2 divide-y divide-gray-200 text-sm dark:divide-gray-700">
        {preview.instalments.map((item) => (
          <li key={item.payment_id} className="flex items-start justify-between gap-3 py-2">
            <span className="min-w-0">
              <span className="block font-semibold break-words text-gray-900 dark:text-gray-50">
                {item.invoice_id}
                <span className="font-normal text-gray-600 dark:text-gray-300">
                  {' · '}
                  {t('checkin.summary.instalment', { seq: item.seq })}
                </span>
              </span>
              <span className="mt-0.5 flex flex-wrap items-center gap-2 text-gray-600 dark:text-gray-300">
                {t('checkin.summary.due', { date: formatDate(item.due_date) })}
                {item.status === 'returned' ? (
                  <StatusBadge tone={paymentStatusTones.returned}>
                    {t('checkin.summary.returned')}
                  </StatusBadge>
                ) : (
                  item.status === 'overdue' && (
                    <StatusBadge tone={paymentStatusTones.overdue}>
                      {t('checkin.summary.overdue')}
                    </StatusBadge>
                  )
                )}
              </span>
            </span>
            <span className="flex shrink-0 flex-col items-end">
              <span className="font-semibold text-gray-900 tabular-nums dark:text-gray-50">
                {formatAmount(item.amount)}
              </span>
              {item.fee !== undefined && item.fee > 0 && (
                <span className="text-gray-700 tabular-nums dark:text-gray-300">
                  {t('returnFee')}: +{formatAmount(item.fee)}
                </span>
              )}
            </span>
          </li>
        ))}
      </ul>
      <div className="mt-1 flex items-baseline justify-between gap-4 border-t border-gray-200 pt-3 dark:border-gray-700">
        <span className="text-base font-semibold text-gray-900 dark:text-gray-50">
          {t('checkin.summary.total')}
        </span>
        <span className="text-2xl font-bold text-gray-900 tabular-nums dark:text-gray-50">
          {formatAmount(preview.amount)}
        </span>
      </div>
    </section>
  );
}

/** Spec §8 "Card payment": the error's title in the spec's words, and what to do about it. */
const errorTitles: Record<
  InitErrorKind,
  'invalidAmount' | 'missingInvoice' | 'unauthenticated' | 'initFailed'
> = {
  invalidAmount: 'invalidAmount',
  amountMismatch: 'invalidAmount',
  missingInvoice: 'missingInvoice',
  unauthenticated: 'unauthenticated',
  notPayable: 'initFailed',
  notFound: 'initFailed',
  cardGone: 'initFailed',
  inProgress: 'initFailed',
  unavailable: 'initFailed',
  network: 'initFailed',
  generic: 'initFailed',
};

function InitError({
  ref,
  kind,
  backHref,
}: {
  ref: Ref<HTMLDivElement>;
  kind: InitErrorKind;
  backHref: string;
}) {
  const { t } = useTranslation('checkout');
  const showBack = kind === 'notPayable' || kind === 'notFound';
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      className="flex scroll-mt-24 scroll-mb-28 gap-3 rounded-xl bg-red-50 p-4 text-sm text-red-900 ring-1 ring-red-200 focus:outline-2 focus:outline-offset-2 focus:outline-red-700 dark:bg-red-950/40 dark:text-red-100 dark:ring-red-800 dark:focus:outline-red-300"
    >
      <AlertIcon className="size-5 shrink-0" />
      <div>
        <p className="font-semibold">{t(`errors.${errorTitles[kind]}`)}</p>
        <p className="mt-1">{t(`errors.details.${kind}`)}</p>
        {showBack && (
          <Link
            to={backHref}
            className="mt-2 inline-flex min-h-11 items-center font-semibold underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current"
          >
            {t(backLabelKey(backHref))}
          </Link>
        )}
      </div>
    </div>
  );
}
