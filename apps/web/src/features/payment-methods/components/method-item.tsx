import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { BankIcon, CardIcon } from '@/components/ui/icons';
import { StatusBadge } from '@/components/ui/status-badge';
import { cardClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';
import { usePaymentMethodsTexts } from '../texts';
import {
  lastFour,
  maskIban,
  methodHref,
  methodName,
  methodStatusTones,
  type PaymentMethod,
} from '../utils/method-display';
import { DeleteMethodDialog } from './delete-method-dialog';
import { TransferIcon, TrashIcon } from './method-icons';

const kindIcons = { card: CardIcon, bank_account: BankIcon, bank_transfer: TransferIcon };

/** The status, main and pending-request badges of a method (list and views). */
export function MethodBadges({ method }: { method: PaymentMethod }) {
  const t = usePaymentMethodsTexts();
  return (
    <span className="flex flex-wrap gap-1.5">
      <StatusBadge tone={methodStatusTones[method.status]}>
        {t(`status.${method.status}`)}
      </StatusBadge>
      {method.is_main && <StatusBadge tone="info">{t('badges.main')}</StatusBadge>}
      {method.pending_requests.includes('main_change') && (
        <StatusBadge tone="neutral">{t('badges.mainRequested')}</StatusBadge>
      )}
      {method.pending_requests.includes('verification') && (
        <StatusBadge tone="neutral">{t('badges.verificationRequested')}</StatusBadge>
      )}
    </span>
  );
}

/** `VISA •••• 0004 · Caduca 12/30` or `ES91 •••• 1332 · CaixaBank`, with words for screen readers. */
export function MethodSummary({ method }: { method: PaymentMethod }) {
  const t = usePaymentMethodsTexts();
  const last4 = lastFour(method);
  const parts: string[] = [];
  if (method.kind === 'card') {
    if (method.card_expiry) parts.push(t('list.expires', { expiry: method.card_expiry }));
    return (
      <span>
        {method.card_brand && <span>{method.card_brand} </span>}
        {last4 && (
          <>
            <span aria-hidden="true">{t('list.cardEnding', { last4 })}</span>
            <span className="sr-only">{t('list.cardEndingLabel', { last4 })}</span>
          </>
        )}
        {parts.map((part) => (
          <span key={part}>
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            {part}
          </span>
        ))}
      </span>
    );
  }
  return (
    <span>
      {method.iban && (
        <>
          <span aria-hidden="true">{maskIban(method.iban)}</span>
          {last4 && <span className="sr-only">{t('list.cardEndingLabel', { last4 })}</span>}
        </>
      )}
      {method.entity && (
        <>
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          {method.entity}
        </>
      )}
    </span>
  );
}

/**
 * One saved method (spec §2 "Payment methods": holder and status): the card is a link to its view
 * (the whole card is the target), with its own delete button beside it.
 */
export function MethodItem({
  method,
  onDeleted,
  canSignMandate = false,
}: {
  method: PaymentMethod;
  onDeleted: (name: string) => void;
  /** A bank account without an active SEPA mandate, where the tenant signs them in the portal. */
  canSignMandate?: boolean;
}) {
  const t = usePaymentMethodsTexts();
  const [isDeleting, setDeleting] = useState(false);
  const name = methodName(method, t);
  const Icon = kindIcons[method.kind];
  return (
    <div
      className={cn(
        cardClasses,
        'relative flex h-full items-start gap-3 p-4 transition has-[a:hover]:ring-primary-ink has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-primary-ink',
      )}
    >
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary-100 text-primary-900 dark:bg-gray-700 dark:text-primary-ink">
        <Icon className="size-6" />
      </span>
      <div className="min-w-0 flex-1">
        <Link
          to={methodHref(method)}
          className="block font-semibold break-words text-gray-900 after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none dark:text-gray-50"
        >
          {name}
        </Link>
        <p className="mt-0.5 text-sm break-words text-gray-700 dark:text-gray-300">
          <MethodSummary method={method} />
        </p>
        {method.holder && (
          <p className="text-sm break-words text-gray-700 dark:text-gray-300">
            {t('list.holder', { holder: method.holder })}
          </p>
        )}
        <div className="mt-2">
          <MethodBadges method={method} />
        </div>
        {canSignMandate && (
          <div className="relative z-10 mt-3 flex flex-wrap items-center gap-x-3 gap-y-2">
            <p className="text-sm text-gray-700 dark:text-gray-300">{t('list.noMandate')}</p>
            <Link
              to={`${paths.signMandate}?id=${encodeURIComponent(method.id)}`}
              aria-label={t('list.signMandateFor', { name })}
              className={buttonClasses('secondary', 'px-3 text-sm')}
            >
              {t('list.signMandate')}
            </Link>
          </div>
        )}
      </div>
      <button
        type="button"
        onClick={() => setDeleting(true)}
        aria-label={t('list.deleteMethod', { name })}
        className="relative z-10 -me-1 -mt-1 inline-flex size-11 shrink-0 items-center justify-center rounded-xl text-gray-600 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-primary-ink dark:text-gray-300 dark:hover:bg-red-950/50 dark:hover:text-red-300"
      >
        <TrashIcon className="size-5" />
      </button>
      <DeleteMethodDialog
        method={method}
        name={name}
        open={isDeleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => {
          setDeleting(false);
          onDeleted(name);
        }}
      />
    </div>
  );
}
