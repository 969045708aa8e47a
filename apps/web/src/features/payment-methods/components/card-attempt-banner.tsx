import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertIcon, CloseIcon } from '@/components/ui/icons';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/utils/cn';
import { useCardAttempt } from '../api/get-card-attempt';
import { paymentMethodsKey } from '../api/get-payment-methods';
import { usePaymentMethodsTexts } from '../texts';
import { cardAttemptPhase, cardAttemptPolicy, type CardAttemptPhase } from '../utils/card-attempt';
import { CheckIcon } from './method-icons';
import { Spinner } from '@/components/ui/spinner';

const tones: Record<CardAttemptPhase, string> = {
  verifying: 'bg-white ring-gray-200 dark:bg-gray-800 dark:ring-gray-700',
  saved:
    'bg-green-50 text-green-950 ring-green-200 dark:bg-green-950/40 dark:text-green-50 dark:ring-green-800',
  failed:
    'bg-red-50 text-red-950 ring-red-200 dark:bg-red-950/40 dark:text-red-50 dark:ring-red-800',
  timedOut:
    'bg-amber-50 text-amber-950 ring-amber-200 dark:bg-amber-950/40 dark:text-amber-50 dark:ring-amber-800',
  unknown: 'bg-gray-50 ring-gray-200 dark:bg-gray-800 dark:ring-gray-700',
};

/**
 * Back from the gateway (`/metodos-de-pago?card_attempt=<id>`): the address proves nothing, so the
 * banner says "verifying" and asks the server until the gateway's signed notification has settled
 * the tokenisation, then "saved" (the list shows the new card) or "failed".
 */
export function CardAttemptBanner({
  attemptId,
  onDismiss,
}: {
  attemptId: string;
  onDismiss: () => void;
}) {
  const [round, setRound] = useState(0);
  return (
    <CardAttemptRound
      key={round}
      attemptId={attemptId}
      onDismiss={onDismiss}
      onCheckAgain={() => setRound((r) => r + 1)}
    />
  );
}

function CardAttemptRound({
  attemptId,
  onDismiss,
  onCheckAgain,
}: {
  attemptId: string;
  onDismiss: () => void;
  onCheckAgain: () => void;
}) {
  const t = usePaymentMethodsTexts();
  const queryClient = useQueryClient();
  const [isTimedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), cardAttemptPolicy.timeoutMs);
    return () => clearTimeout(timer);
  }, []);
  const attempt = useCardAttempt(attemptId, { polling: !isTimedOut });
  const isNotFound =
    attempt.error instanceof ApiError && attempt.error.status >= 400 && attempt.error.status < 500;
  const phase = cardAttemptPhase({ status: attempt.data, isNotFound, isTimedOut });

  useEffect(() => {
    // The new card shows in the list at once.
    if (phase === 'saved')
      void queryClient.invalidateQueries({ queryKey: [...paymentMethodsKey, 'list'] });
  }, [phase, queryClient]);

  return (
    <div
      role="status"
      aria-live="polite"
      aria-atomic="true"
      className={cn('flex items-start gap-3 rounded-2xl p-4 ring-1', tones[phase])}
    >
      <PhaseMark phase={phase} />
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{t(`cardAttempt.${phase}.title`)}</p>
        <p className="mt-1 text-sm">{t(`cardAttempt.${phase}.text`)}</p>
        {phase === 'failed' && (
          <Link to={paths.addCard} className={buttonClasses('secondary', 'mt-3')}>
            {t('cardAttempt.failed.retry')}
          </Link>
        )}
        {phase === 'timedOut' && (
          <Button variant="secondary" className="mt-3" onClick={onCheckAgain}>
            {t('cardAttempt.timedOut.checkAgain')}
          </Button>
        )}
      </div>
      {phase !== 'verifying' && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('cardAttempt.dismiss')}
          className="-me-2 -mt-2 inline-flex size-11 shrink-0 items-center justify-center rounded-xl hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-primary-ink dark:hover:bg-white/10"
        >
          <CloseIcon className="size-5" />
        </button>
      )}
    </div>
  );
}

function PhaseMark({ phase }: { phase: CardAttemptPhase }) {
  if (phase === 'verifying') {
    return <Spinner size="md" tone="primary" className="mt-0.5" />;
  }
  if (phase === 'saved') return <CheckIcon className="size-5 shrink-0" />;
  return <AlertIcon className="size-5 shrink-0" />;
}
