import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link, useLocation, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertIcon } from '@/components/ui/icons';
import { StatusBadge } from '@/components/ui/status-badge';
import { cardClasses, pageClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { formatAmount } from '@/lib/money';
import { cn } from '@/utils/cn';
import { formatDateTime } from '../utils/format';
import { readPaymentSession } from '../utils/payment-session';
import { toCents } from '@/lib/money';
import type { PaymentStatusAnswer, Verification } from '../utils/payment-verification';
import { parseResultQuery, type ResultQuery, retryHref } from '../utils/result-query';
import { CheckCircleIcon, ClockIcon, CrossCircleIcon, RefundIcon } from './checkout-icons';
import { usePaymentVerification } from './use-payment-verification';
import { Spinner } from '@/components/ui/spinner';
import { DownloadButton } from '@/components/ui/download-button';
import { getLanguage } from '@/lib/i18n';
import { useDownloadReceipt } from '../api/download-receipt';

type TPaymentRefund = NonNullable<PaymentStatusAnswer['refund']>;
/** Why it failed, from the gateway's answer; null when only the address says it failed. */
type FailureReason = NonNullable<PaymentStatusAnswer['failure']> | null;

const reasonOf = (payment: PaymentStatusAnswer | null): FailureReason => payment?.failure ?? null;

/** What the screen shows: the server's word on the payment, or the address's claim of a failure. */
type ResultView =
  | { phase: 'verifying' }
  | { phase: 'timedOut' }
  | { phase: 'paid'; payment: PaymentStatusAnswer }
  /** Paid, but all of it was for instalments already paid: it is (being) refunded. */
  | { phase: 'refunded'; payment: PaymentStatusAnswer; refund: TPaymentRefund }
  | { phase: 'failed'; payment: PaymentStatusAnswer | null }
  | { phase: 'superseded'; payment: PaymentStatusAnswer }
  | { phase: 'unknown' };

/** A paid payment whose whole amount is refunded reads as a refund, not as a success. */
function viewOf(verification: Verification): ResultView {
  if (verification.phase !== 'paid') return verification;
  const { refund } = verification.payment;
  if (refund && toCents(refund.amount) >= toCents(verification.payment.amount)) {
    return { phase: 'refunded', payment: verification.payment, refund };
  }
  return verification;
}

/**
 * Spec §2 "Payment result" (/payment/success, /payment/error, /payment-checkout). The address is
 * never believed (PRODUCT.md "Payments"): the screen shows "verifying" and asks the server until
 * the gateway's signed notification has settled the payment. The outcome is announced (a polite
 * live region) and the heading takes the focus, so the next Tab reaches the buttons.
 */
export function ResultScreen() {
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  const query = useMemo(
    () => parseResultQuery(pathname, search, readPaymentSession()),
    [pathname, search],
  );
  const { verification, checkAgain } = usePaymentVerification(query.paymentId);
  const view: ResultView = verification
    ? viewOf(verification)
    : query.claim === 'failure'
      ? { phase: 'failed', payment: null }
      : { phase: 'unknown' };

  const queryClient = useQueryClient();
  useEffect(() => {
    // What was paid shows as paid on the lists and the invoice from now on.
    if (view.phase === 'paid' || view.phase === 'refunded') void queryClient.invalidateQueries();
  }, [view.phase, queryClient]);

  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstPhase = useRef(view.phase);
  // A layout effect: the focus moves in the same commit that shows the outcome, never after it.
  useLayoutEffect(() => {
    if (view.phase !== firstPhase.current) headingRef.current?.focus();
  }, [view.phase]);

  return (
    <div className={pageClasses}>
      <section
        aria-labelledby="payment-result-title"
        className={cn(cardClasses, 'mx-auto max-w-2xl p-6 sm:p-8')}
      >
        <div
          role="status"
          aria-live="polite"
          aria-atomic="true"
          className="flex flex-col items-center text-center"
        >
          <ResultMark view={view} />
          <h1
            id="payment-result-title"
            ref={headingRef}
            tabIndex={-1}
            className="mt-5 text-2xl font-bold text-gray-900 focus:outline-none sm:text-3xl dark:text-gray-50"
          >
            <ResultTitle view={view} />
          </h1>
          <ResultText view={view} />
        </div>
        <ResultDetails view={view} query={query} />
        <ResultActions view={view} query={query} onCheckAgain={checkAgain} />
      </section>
    </div>
  );
}

function ResultMark({ view }: { view: ResultView }) {
  const circle = 'grid size-16 place-items-center rounded-full';
  switch (view.phase) {
    case 'verifying':
      return (
        <span className={cn(circle, 'bg-gray-100 dark:bg-gray-700')}>
          <Spinner tone="primary" />
        </span>
      );
    case 'timedOut':
      return (
        <span
          className={cn(
            circle,
            'bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100',
          )}
        >
          <ClockIcon className="size-9" />
        </span>
      );
    case 'paid':
      return (
        <span
          className={cn(
            circle,
            'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200',
          )}
        >
          <CheckCircleIcon className="size-9" />
        </span>
      );
    case 'failed':
      // The customer's own cancel is no alarm: grey, not red (review #14).
      return (
        <span
          className={cn(
            circle,
            reasonOf(view.payment) === 'cancelled'
              ? 'bg-gray-100 text-gray-700 dark:bg-gray-700 dark:text-gray-200'
              : 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200',
          )}
        >
          <CrossCircleIcon className="size-9" />
        </span>
      );
    case 'refunded':
      return (
        <span
          className={cn(circle, 'bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100')}
        >
          <RefundIcon className="size-9" />
        </span>
      );
    case 'superseded':
    case 'unknown':
      return (
        <span
          className={cn(circle, 'bg-gray-100 text-gray-700 dark:bg-gray-700 dark:text-gray-200')}
        >
          <AlertIcon className="size-9" />
        </span>
      );
  }
}

function ResultTitle({ view }: { view: ResultView }) {
  const { t } = useTranslation('checkout');
  switch (view.phase) {
    case 'verifying':
      return t('result.verifying.title');
    case 'timedOut':
      return t('result.timedOut.title');
    case 'paid':
      return t('result.success.title');
    case 'failed':
      return reasonOf(view.payment) === 'cancelled'
        ? t('result.cancelled.title')
        : t('result.failure.title');
    case 'refunded':
      return t('result.refunded.title');
    case 'superseded':
      return t('result.superseded.title');
    case 'unknown':
      return t('result.unknown.title');
  }
}

const lead = 'mt-2 max-w-prose text-gray-700 dark:text-gray-300';

function ResultText({ view }: { view: ResultView }) {
  const { t } = useTranslation('checkout');
  switch (view.phase) {
    case 'verifying':
      return <p className={lead}>{t('result.verifying.text')}</p>;
    case 'timedOut':
      return <p className={lead}>{t('result.timedOut.text')}</p>;
    case 'paid': {
      const { refund } = view.payment;
      return (
        <>
          <p className={lead}>{t('result.success.text')}</p>
          {refund && (
            <p className={cn(lead, 'font-medium text-gray-900 dark:text-gray-50')}>
              {t(`result.refund.partial.${refund.status}`, { amount: formatAmount(refund.amount) })}
            </p>
          )}
          {view.payment.card_saved && <p className={lead}>{t('result.success.cardSaved')}</p>}
        </>
      );
    }
    case 'refunded':
      return (
        <p className={lead}>
          {t(`result.refund.whole.${view.refund.status}`, {
            amount: formatAmount(view.refund.amount),
          })}
        </p>
      );
    case 'superseded':
      return (
        <>
          <p className={lead}>{t('result.superseded.text')}</p>
          <p className={lead}>{t('result.superseded.detail')}</p>
        </>
      );
    case 'failed': {
      // Worded from the gateway's answer: a decline, the customer's cancel, or an error.
      const reason = reasonOf(view.payment);
      const bizum = view.payment?.method === 'bizum';
      const [text, detail] =
        reason === 'declined' && bizum
          ? [t('result.failure.bizumDeclined'), t('result.failure.bizumDeclinedDetail')]
          : reason === 'declined'
            ? [t('result.failure.declined'), t('result.failure.declinedDetail')]
            : reason === 'cancelled'
              ? [t('result.cancelled.text'), t('result.cancelled.detail')]
              : reason === 'error'
                ? [t('result.failure.text'), t('result.failure.errorDetail')]
                : [t('result.failure.text'), t('result.failure.detail')];
      return (
        <>
          <p className={cn(lead, 'font-medium text-gray-900 dark:text-gray-50')}>{text}</p>
          <p className={lead}>{detail}</p>
        </>
      );
    }
    case 'unknown':
      return <p className={lead}>{t('result.unknown.text')}</p>;
  }
}

const refundTones: Record<TPaymentRefund['status'], 'info' | 'success' | 'warning'> = {
  pending: 'info',
  refunded: 'success',
  review: 'warning',
  resolved: 'success',
};

/** Spec §2: payment id, amount, invoice and date, with the status completed or failed. */
function ResultDetails({ view, query }: { view: ResultView; query: ResultQuery }) {
  const { t } = useTranslation('checkout');
  if (
    view.phase !== 'paid' &&
    view.phase !== 'failed' &&
    view.phase !== 'refunded' &&
    view.phase !== 'superseded'
  ) {
    return null;
  }
  const payment = view.payment;
  const invoices = payment ? payment.invoices : query.invoiceIds;
  const amount = payment ? payment.amount : query.amount;
  const orderId = payment ? payment.order_id : query.orderId;
  // Madrid time, as the server gives it (review #27).
  const date = payment ? formatDateTime(payment.date, payment.time) : null;
  const rows: { label: string; value: ReactNode }[] = [];
  if (orderId) rows.push({ label: t('result.details.order'), value: orderId });
  if (amount !== null)
    rows.push({ label: t('result.details.amount'), value: formatAmount(amount) });
  if (invoices.length > 0) {
    rows.push({
      label: invoices.length === 1 ? t('result.details.invoice') : t('result.details.invoices'),
      value: invoices.join(', '),
    });
  }
  if (date) rows.push({ label: t('result.details.date'), value: date });
  // How it was paid (issue 23: Bizum beside the card); an older answer without it says nothing.
  if (payment?.method) {
    rows.push({
      label: t('result.details.method'),
      value:
        payment.method === 'bizum'
          ? t('checkin.method.bizum')
          : payment.method === 'paypal'
            ? t('checkin.method.paypal')
            : t('checkin.method.creditCard'),
    });
  }
  rows.push({
    label: t('result.details.status'),
    value:
      view.phase === 'paid' ? (
        <StatusBadge tone="success">{t('result.status.completed')}</StatusBadge>
      ) : view.phase === 'refunded' ? (
        <StatusBadge tone={refundTones[view.refund.status]}>
          {t(`result.refund.status.${view.refund.status}`)}
        </StatusBadge>
      ) : view.phase === 'superseded' ? (
        <StatusBadge tone="neutral">{t('result.status.superseded')}</StatusBadge>
      ) : reasonOf(payment) === 'cancelled' ? (
        <StatusBadge tone="neutral">{t('result.status.cancelled')}</StatusBadge>
      ) : (
        <StatusBadge tone="danger">{t('result.status.failed')}</StatusBadge>
      ),
  });
  // Spec §4: the failure address's own message, quoted as it came (plain text, one line).
  if (view.phase === 'failed' && query.message) {
    rows.push({ label: t('result.details.message'), value: `“${query.message}”` });
  }
  const refund = payment?.refund;
  if (refund && view.phase === 'paid') {
    rows.push({
      label: t('result.details.refund'),
      value: (
        <span className="inline-flex flex-wrap items-baseline justify-end gap-2">
          {formatAmount(refund.amount)}
          <StatusBadge tone={refundTones[refund.status]}>
            {t(`result.refund.status.${refund.status}`)}
          </StatusBadge>
        </span>
      ),
    });
  }

  return (
    <section
      aria-labelledby="payment-result-details"
      className="mt-6 rounded-xl bg-gray-50 p-4 sm:p-5 dark:bg-gray-900/60"
    >
      <h2 id="payment-result-details" className={cn(sectionTitleClasses, 'text-base')}>
        {t('result.details.title')}
      </h2>
      <dl className="mt-3 divide-y divide-gray-200 text-sm dark:divide-gray-700">
        {rows.map((row) => (
          <div key={row.label} className="flex items-baseline justify-between gap-4 py-2">
            <dt className="shrink-0 text-gray-700 dark:text-gray-300">{row.label}</dt>
            <dd className="min-w-0 text-right font-semibold break-words text-gray-900 tabular-nums dark:text-gray-50">
              {row.value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ResultActions({
  view,
  query,
  onCheckAgain,
}: {
  view: ResultView;
  query: ResultQuery;
  onCheckAgain: () => void;
}) {
  const { t } = useTranslation('checkout');
  const home = (
    <Link to={paths.home} className={buttonClasses('secondary')}>
      {t('result.actions.home')}
    </Link>
  );
  const payments = (variant: 'primary' | 'secondary') => (
    <Link to={paths.payments} className={buttonClasses(variant)}>
      {t('result.actions.viewPayments')}
    </Link>
  );
  let actions: ReactNode;
  switch (view.phase) {
    case 'verifying':
      return null;
    case 'timedOut':
      actions = (
        <>
          <Button onClick={onCheckAgain}>{t('result.timedOut.checkAgain')}</Button>
          {payments('secondary')}
          {home}
        </>
      );
      break;
    case 'paid': {
      const [invoice, ...others] = view.payment.invoices;
      actions = (
        <>
          <Link to={paths.home} className={buttonClasses('primary')}>
            {t('result.actions.home')}
          </Link>
          {invoice && others.length === 0 ? (
            <Link to={paths.invoiceDetail.href(invoice)} className={buttonClasses('secondary')}>
              {t('result.actions.viewInvoice')}
            </Link>
          ) : (
            payments('secondary')
          )}
          {view.payment.card_saved && (
            <Link to={paths.paymentMethods} className={buttonClasses('secondary')}>
              {t('result.actions.paymentMethods')}
            </Link>
          )}
          <ReceiptButton payment={view.payment} />
        </>
      );
      break;
    }
    case 'failed':
      actions = (
        <>
          <Link
            to={retryHref(view.payment ? view.payment.invoices : query.invoiceIds)}
            className={buttonClasses('primary')}
          >
            {reasonOf(view.payment) === 'declined' && view.payment?.method !== 'bizum'
              ? t('result.actions.otherCard')
              : t('result.actions.retry')}
          </Link>
          {home}
        </>
      );
      break;
    case 'refunded':
    case 'superseded':
    case 'unknown':
      actions = (
        <>
          {payments('primary')}
          {home}
        </>
      );
      break;
  }
  return (
    <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:justify-center">
      {actions}
    </div>
  );
}

/** The receipt PDF of the payment just made (issue 23, item 3). */
function ReceiptButton({ payment }: { payment: PaymentStatusAnswer }) {
  const { t } = useTranslation('checkout');
  const download = useDownloadReceipt(payment, getLanguage());
  return (
    <DownloadButton
      onDownload={() => download.mutate()}
      isPending={download.isPending}
      isError={download.isError}
      errorText={t('receipt.error')}
      className="sm:items-center"
    >
      {t('receipt.download')}
    </DownloadButton>
  );
}
