import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { Switch } from '@/components/ui/switch';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { formatAmount } from '@/lib/money';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { useAutoPay, type AutoPay } from '../api/get-auto-pay';
import { usePaymentMethods } from '../api/get-payment-methods';
import { useSetAutoPay } from '../api/set-auto-pay';
import { usePaymentMethodsTexts } from '../texts';
import { lastFour, type PaymentMethod } from '../utils/method-display';
import { Notice } from './notice';

/** How many instalments the section lists before "and N more". */
const shown = 5;

/**
 * Issue 23 "Auto-pay with the card on file", on a card's view: the switch ("Cobraremos tus plazos
 * en su fecha de vencimiento con esta tarjeta"), why a card cannot be used, and while it is on the
 * instalments it will pay and the next charge. Only where the tenant offers it (visual config).
 */
export function AutoPaySection({ method }: { method: PaymentMethod }) {
  const { autoPay: offered } = useVisualConfig();
  const t = usePaymentMethodsTexts();
  const titleId = useId();
  const query = useAutoPay(offered);
  if (!offered) return null;
  return (
    <section
      aria-labelledby={titleId}
      className={cn(cardClasses, 'p-4 sm:p-6')}
      data-testid="auto-pay"
    >
      <h2 id={titleId} className={sectionTitleClasses}>
        {t('autoPay.title')}
      </h2>
      {query.isPending ? (
        <div role="status" aria-label={t('common.loading')} className="mt-4 space-y-3">
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      ) : query.isError ? (
        <Notice
          tone="error"
          className="mt-4"
          action={
            <Button variant="secondary" onClick={() => void query.refetch()}>
              {t('autoPay.retry')}
            </Button>
          }
        >
          {t('autoPay.loadError')}
        </Notice>
      ) : (
        <AutoPayState method={method} state={query.data} />
      )}
    </section>
  );
}

function AutoPayState({ method, state }: { method: PaymentMethod; state: AutoPay }) {
  const t = usePaymentMethodsTexts();
  const setAutoPay = useSetAutoPay();
  const methods = usePaymentMethods();
  const [message, setMessage] = useState<'on' | 'off' | null>(null);
  const card = state.cards.find((c) => c.id === method.id);
  const on = state.card_id === method.id;
  const otherCard =
    state.card_id && !on ? methods.data?.find((m) => m.id === state.card_id) : undefined;
  const otherEnding = otherCard ? lastFour(otherCard) : null;
  const errorCode = setAutoPay.error instanceof ApiError ? setAutoPay.error.code : null;

  if (!state.allowed) return <p className="mt-4 text-sm">{t('autoPay.notAllowed')}</p>;
  const problem = card?.problem ?? null;

  return (
    <div className="mt-3 space-y-4">
      {/* The row's own padding lines its text up with the section's. */}
      <div className="-mx-3">
        <Switch
          checked={on}
          disabled={setAutoPay.isPending || (!on && (problem !== null || !card))}
          onChange={(enabled) => {
            setMessage(null);
            setAutoPay.mutate(
              { id: method.id, enabled },
              { onSuccess: () => setMessage(enabled ? 'on' : 'off') },
            );
          }}
          label={<span className="font-medium">{t('autoPay.title')}</span>}
          description={t('autoPay.description')}
        />
      </div>
      {problem === 'no_cof_txnid' && <Notice tone="warning">{t('autoPay.noCof')}</Notice>}
      {problem === 'expired' && <Notice tone="warning">{t('autoPay.expired')}</Notice>}
      {otherEnding && (
        <Notice tone="info">{t('autoPay.onOther', { card: `•••• ${otherEnding}` })}</Notice>
      )}
      {setAutoPay.isError && (
        <Notice tone="error">
          {errorCode === 'auto_pay_not_allowed'
            ? t('autoPay.notAllowed')
            : errorCode === 'auto_pay_card_unsupported'
              ? t('autoPay.noCof')
              : t('autoPay.error')}
        </Notice>
      )}
      <p role="status" className="sr-only">
        {message === 'on' ? t('autoPay.turnedOn') : message === 'off' ? t('autoPay.turnedOff') : ''}
      </p>
      {message === 'off' && <Notice tone="success">{t('autoPay.turnedOff')}</Notice>}
      {on && <CoveredInstalments state={state} />}
    </div>
  );
}

function CoveredInstalments({ state }: { state: AutoPay }) {
  const t = usePaymentMethodsTexts();
  const listId = useId();
  const next = state.next_charge_date ? formatDate(state.next_charge_date) : null;
  const listed = state.instalments.slice(0, shown);
  // From the server's total: the list it sends stops at 50, so its length says nothing of the rest.
  const rest = state.instalments_total - listed.length;
  return (
    <div className="space-y-3">
      {next && (
        <p className="text-sm font-medium" data-testid="auto-pay-next">
          {t('autoPay.nextCharge', { date: next })}
        </p>
      )}
      {state.instalments.length === 0 ? (
        <p className="text-sm text-gray-700 dark:text-gray-200">{t('autoPay.none')}</p>
      ) : (
        <div>
          <h3 id={listId} className="text-sm font-semibold">
            {t('autoPay.covers')}
          </h3>
          <ul
            aria-labelledby={listId}
            className="mt-2 divide-y divide-gray-200 rounded-lg ring-1 ring-gray-200 dark:divide-gray-700 dark:ring-gray-700"
          >
            {listed.map((i) => (
              <li
                key={i.payment_id}
                className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2 text-sm"
              >
                <span className="min-w-0">
                  <span className="block font-medium break-words">
                    {t('autoPay.instalment', { invoice: i.invoice_id, seq: i.seq })}
                  </span>
                  <span className="block text-gray-600 dark:text-gray-300">
                    {t('autoPay.due', { date: formatDate(i.due_date) ?? i.due_date })}
                  </span>
                </span>
                <span className="font-mono tabular-nums">{formatAmount(i.amount_cents / 100)}</span>
              </li>
            ))}
          </ul>
          {rest > 0 && (
            <p className="mt-2 text-sm text-gray-600 dark:text-gray-300">
              {t('autoPay.more', { count: rest })}
            </p>
          )}
        </div>
      )}
      <p className="text-sm text-gray-700 dark:text-gray-200">
        {t('autoPay.notice', { days: state.notice_days })}
      </p>
    </div>
  );
}
