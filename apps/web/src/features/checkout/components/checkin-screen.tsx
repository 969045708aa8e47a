import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertIcon, ChevronLeftIcon } from '@/components/ui/icons';
import {
  cardClasses,
  pageClasses,
  pageTitleClasses,
  sectionTitleClasses,
} from '@/components/ui/surfaces';
import { getLanguage } from '@/lib/i18n';
import { formatAmount, formatAmountParam } from '@/lib/money';
import { readStorage, storageKeys } from '@/lib/storage';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { useSavedCards } from '../api/get-saved-cards';
import { useInitPayment } from '../api/init-payment';
import {
  canAccept,
  type CheckinForm,
  emptyCheckinForm,
  initPaymentBody,
  type PaymentMethod,
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
import { CardFields, checkboxClasses, MethodFields } from './payment-method-fields';

/** The tenant's gateway takes cards; PayPal (and Bizum) arrive with the tenants that enable them. */
const availableMethods: readonly PaymentMethod[] = ['credit_card'];
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

/**
 * Spec §2 "Payment confirmation" (/payment-checkin?invoiceId=..&amount=.. or
 * ?payments=id1,id2&amount=..): the summary, the method, the card, the conditions, and "Accept and
 * continue", which starts the payment and hands the browser to the gateway.
 */
export function CheckinScreen() {
  const [search] = useSearchParams();
  const query = useMemo(() => parseCheckinQuery(search), [search]);
  if (!query.ok) return <InvalidCheckin errors={query.errors} />;
  return <CheckinFormView key={search.toString()} target={query.target} amount={query.amount} />;
}

/** Spec §8: a confirmation opened without an invoice or a valid amount pays nothing. */
function InvalidCheckin({ errors }: { errors: CheckinQueryError[] }) {
  const { t } = useTranslation('checkout');
  return (
    <div className={pageClasses}>
      <div
        role="alert"
        className={cn(cardClasses, 'mx-auto flex max-w-lg flex-col items-center p-8 text-center')}
      >
        <span className="mb-5 grid size-16 place-items-center rounded-full bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200">
          <AlertIcon className="size-8" />
        </span>
        <h1 className="text-xl font-bold text-gray-900 dark:text-gray-50">
          {t('checkin.invalid.title')}
        </h1>
        <ul className="mt-3 space-y-2 text-gray-700 dark:text-gray-300">
          {errors.map((error) => (
            <li key={error}>
              <strong className="block font-semibold text-gray-900 dark:text-gray-50">
                {t(`errors.${error}`)}
              </strong>
              {t(`errors.details.${error}`)}
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
      </div>
    </div>
  );
}

function CheckinFormView({ target, amount }: { target: CheckinTarget; amount: number }) {
  const { t } = useTranslation('checkout');
  const savedCardsQuery = useSavedCards();
  const savedCards = savedCardsQuery.data ?? noSavedCards;
  useEffect(() => {
    // Without the list the customer still pays with a new card; the failure is only logged.
    if (savedCardsQuery.error)
      console.error('Could not load the saved cards', savedCardsQuery.error);
  }, [savedCardsQuery.error]);
  const { testingMode } = useVisualConfig();
  const [form, setForm] = useState<CheckinForm>(emptyCheckinForm);
  const [now] = useState(() => new Date());
  const hintId = useId();
  const conditionsId = useId();
  const init = useInitPayment({ onStarted: (answer) => rememberPaymentId(answer.payment_id) });
  const { reset } = init;
  // Pending, then leaving for the gateway: the button keeps loading until the page is gone.
  const isStarting = init.isPending || init.isSuccess;
  const options = { availableMethods, savedCards };
  const isValid = canAccept(form, options);
  const isMissingSavedCard =
    form.method === 'credit_card' && form.cardSource === 'saved' && form.acceptedConditions;
  const backHref = checkinBackHref(target);

  // Coming back from the gateway with the browser's Back button restores this page as it was.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);

  const change = (patch: Partial<CheckinForm>) => setForm((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isValid || isStarting) return;
    rememberPaymentStart({
      invoice: target.kind === 'invoices' ? target.invoiceIds.join(',') : null,
      amount: formatAmountParam(amount),
      saveNewCard: form.method === 'credit_card' && form.cardSource === 'new' && form.saveNewCard,
    });
    init.mutate(
      initPaymentBody({
        target,
        amount,
        form,
        language: getLanguage(),
        // Spec §2 side menu: the testing toggle makes the simulator decline (test mode only).
        simulateDecline: testingMode && readStorage(storageKeys.testingPaymentFails) === 'true',
      }),
    );
  };

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
        <Summary target={target} amount={amount} now={now} />

        <div className="min-w-0 space-y-6 lg:col-start-1 lg:row-start-1">
          <MethodFields
            form={form}
            onChange={change}
            disabled={isStarting}
            availableMethods={availableMethods}
          />
          {form.method === 'credit_card' && (
            <CardFields
              form={form}
              onChange={change}
              disabled={isStarting}
              savedCards={savedCards}
            />
          )}

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
              {t('checkin.conditions.text', { amount: formatAmount(amount) })}
            </p>
            <label className="mt-4 flex cursor-pointer items-start gap-3">
              <input
                type="checkbox"
                checked={form.acceptedConditions}
                onChange={(event) => change({ acceptedConditions: event.target.checked })}
                disabled={isStarting}
                aria-describedby={`${conditionsId}-text`}
                className={checkboxClasses}
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
              className="w-full sm:w-auto sm:min-w-64"
            >
              {isStarting && (
                <span
                  aria-hidden="true"
                  className="size-5 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-[spin_3s_linear_infinite]"
                />
              )}
              {isStarting ? t('checkin.redirecting') : t('checkin.accept')}
            </Button>
            {!isValid && !isStarting && (
              <p id={hintId} className="text-sm text-gray-600 dark:text-gray-300">
                {isMissingSavedCard ? t('checkin.card.chooseSavedCard') : t('checkin.acceptHint')}
              </p>
            )}
            <p role="status" className="sr-only">
              {isStarting ? t('checkin.redirecting') : ''}
            </p>
            {init.isError && <InitError kind={initErrorKind(init.error)} backHref={backHref} />}
          </div>
        </div>
      </form>
    </div>
  );
}

/** Spec §2: what is paid, the current date and time, and the total in euros (es-ES). */
function Summary({ target, amount, now }: { target: CheckinTarget; amount: number; now: Date }) {
  const { t } = useTranslation('checkout');
  const id = useId();
  const what =
    target.kind === 'payments'
      ? { label: t('checkin.summary.instalments'), value: String(target.paymentIds.length) }
      : target.invoiceIds.length === 1
        ? { label: t('checkin.summary.invoice'), value: target.invoiceIds[0] ?? '' }
        : { label: t('checkin.summary.invoices'), value: target.invoiceIds.join(', ') };
  return (
    <section
      aria-labelledby={id}
      className={cn(cardClasses, 'h-fit p-4 sm:p-5 lg:sticky lg:top-20 lg:col-start-2')}
    >
      <h2 id={id} className={sectionTitleClasses}>
        {t('checkin.summary.title')}
      </h2>
      <dl className="mt-3 space-y-3 text-sm">
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-gray-700 dark:text-gray-300">{what.label}</dt>
          <dd className="min-w-0 text-right font-semibold break-words text-gray-900 dark:text-gray-50">
            {what.value}
          </dd>
        </div>
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-gray-700 dark:text-gray-300">{t('checkin.summary.dateTime')}</dt>
          <dd className="font-semibold text-gray-900 tabular-nums dark:text-gray-50">
            {formatDateTime(now)}
          </dd>
        </div>
        <div className="flex items-baseline justify-between gap-4 border-t border-gray-200 pt-3 dark:border-gray-700">
          <dt className="text-base font-semibold text-gray-900 dark:text-gray-50">
            {t('checkin.summary.total')}
          </dt>
          <dd className="text-2xl font-bold text-gray-900 tabular-nums dark:text-gray-50">
            {formatAmount(amount)}
          </dd>
        </div>
      </dl>
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
  inProgress: 'initFailed',
  unavailable: 'initFailed',
  network: 'initFailed',
  generic: 'initFailed',
};

function InitError({ kind, backHref }: { kind: InitErrorKind; backHref: string }) {
  const { t } = useTranslation('checkout');
  const showBack = kind === 'amountMismatch' || kind === 'notPayable' || kind === 'notFound';
  return (
    <div
      role="alert"
      className="flex gap-3 rounded-xl bg-red-50 p-4 text-sm text-red-900 ring-1 ring-red-200 dark:bg-red-950/40 dark:text-red-100 dark:ring-red-800"
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
