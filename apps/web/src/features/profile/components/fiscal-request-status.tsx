import { fiscalDataFields } from '@portal/contract/fiscal-data';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { StatusBadge } from '@/components/ui/status-badge';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { useTranslation } from '@/lib/use-translation';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { useDismissFiscalDataDecision } from '../api/dismiss-fiscal-data-decision';
import { type FiscalDataRequest, type FiscalDataRequests } from '../api/get-fiscal-data-requests';
import { useWithdrawFiscalDataRequest } from '../api/withdraw-fiscal-data-request';
import { formatMomentDate } from '../format';

const panel = 'mt-4 rounded-xl p-4 text-sm ring-1';

/**
 * Under the profile's fiscal data: the change the customer asked for while the organisation
 * reviews it ("Pendiente de revisión", with what was asked, and a way to withdraw it), then the
 * outcome of the last one (approved, or rejected with the organisation's reason) until hidden.
 */
export function FiscalRequestStatus({
  state,
  loadFailed,
  onRetry,
}: {
  state: FiscalDataRequests | undefined;
  loadFailed: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation('fiscal-data');
  if (loadFailed && !state) {
    return (
      <div className="mt-4 flex flex-wrap items-center gap-3 text-sm text-gray-700 dark:text-gray-300">
        <p className="min-w-0 flex-1">{t('card.loadError')}</p>
        <Button variant="secondary" className="min-h-11" onClick={onRetry}>
          {t('card.retry')}
        </Button>
      </div>
    );
  }
  if (!state) return null;
  return (
    <>
      {state.pending && <PendingRequest request={state.pending} />}
      {state.last_decision && <Decision request={state.last_decision} />}
    </>
  );
}

function PendingRequest({ request }: { request: FiscalDataRequest }) {
  const { t } = useTranslation('fiscal-data');
  const { companyName } = useVisualConfig();
  const headingId = useId();
  const withdraw = useWithdrawFiscalDataRequest();
  const closed = withdraw.error instanceof ApiError && withdraw.error.status === 409;
  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        panel,
        'bg-amber-50 text-gray-900 ring-amber-200 dark:bg-amber-950/40 dark:text-gray-50 dark:ring-amber-900',
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {t('card.pendingTitle')}
        </h3>
        <StatusBadge tone="warning">{t('card.pendingBadge')}</StatusBadge>
      </div>
      <p className="mt-1 text-gray-700 dark:text-gray-300">
        {t('card.pendingDate', {
          date: formatMomentDate(request.created_at),
          company: companyName,
        })}
      </p>
      <dl className="mt-3 space-y-2">
        {fiscalDataFields.map((field) => (
          <div key={field}>
            <dt className="text-gray-600 dark:text-gray-300">{t(`form.fields.${field}`)}</dt>
            <dd className="font-medium break-words">{request.requested[field]}</dd>
          </div>
        ))}
        {request.comment && (
          <div>
            <dt className="text-gray-600 dark:text-gray-300">{t('card.comment')}</dt>
            <dd className="break-words whitespace-pre-line">{request.comment}</dd>
          </div>
        )}
      </dl>
      {withdraw.isError && (
        <p role="alert" className="mt-3 font-medium text-red-800 dark:text-red-200">
          {closed ? t('card.withdrawClosed') : t('card.withdrawError')}
        </p>
      )}
      <Button
        variant="secondary"
        className="mt-3 min-h-11"
        disabled={withdraw.isPending}
        onClick={() => withdraw.mutate(request.id)}
      >
        {withdraw.isPending ? (
          <>
            <Spinner size="sm" tone="current" />
            {t('card.withdrawing')}
          </>
        ) : (
          t('card.withdraw')
        )}
      </Button>
    </section>
  );
}

function Decision({ request }: { request: FiscalDataRequest }) {
  const { t } = useTranslation('fiscal-data');
  const { companyName } = useVisualConfig();
  const headingId = useId();
  const dismiss = useDismissFiscalDataDecision();
  const approved = request.status === 'approved';
  const values = { date: formatMomentDate(request.closed_at), company: companyName };
  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        panel,
        approved
          ? 'bg-green-50 text-gray-900 ring-green-200 dark:bg-green-950/40 dark:text-gray-50 dark:ring-green-900'
          : 'bg-red-50 text-gray-900 ring-red-200 dark:bg-red-950/40 dark:text-gray-50 dark:ring-red-900',
      )}
    >
      <h3 id={headingId} className="font-semibold">
        {approved ? t('card.approvedTitle') : t('card.rejectedTitle')}
      </h3>
      <p className="mt-1 text-gray-700 dark:text-gray-300">
        {approved ? t('card.approvedText', values) : t('card.rejectedText', values)}
      </p>
      {!approved && request.reason && (
        <p className="mt-2 break-words">
          <span className="font-semibold">{t('card.reason')}: </span>
          {request.reason}
        </p>
      )}
      <Button
        variant="secondary"
        className="mt-3 min-h-11"
        aria-label={t('card.dismissLabel')}
        disabled={dismiss.isPending}
        onClick={() => dismiss.mutate(request.id)}
      >
        {t('card.dismiss')}
      </Button>
    </section>
  );
}
