import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { BankIcon, CardIcon } from '@/components/ui/icons';
import { OptionTile } from '@/components/ui/option-tile';
import { ListState } from '@/components/ui/list-state';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, pageTitleClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';
import { usePaymentMethods } from '../api/get-payment-methods';
import { useSepaMandates } from '../api/get-sepa-mandates';
import { usePaymentMethodsTexts } from '../texts';
import { CardAttemptBanner } from './card-attempt-banner';
import { TransferIcon } from './method-icons';
import { MethodItem } from './method-item';
import { Notice } from './notice';
import { SepaMandatesSection } from './sepa-mandates-section';
import { useFlash } from './use-flash';
import { Page } from '@/components/ui/page';

/**
 * Spec §2 "Payment methods" (/metodos-de-pago): the saved methods (holder, status, main, pending
 * requests) or the empty text of §8, delete with a confirmation, and the three ways to add one.
 * Back from the gateway with `?card_attempt=<id>` it verifies the card being saved.
 */
export function PaymentMethodsScreen() {
  const t = usePaymentMethodsTexts();
  const [search, setSearch] = useSearchParams();
  const attemptId = search.get('card_attempt');
  const flash = useFlash();
  // An object, so that deleting a second method of the same name says (and focuses) it again.
  const [deleted, setDeleted] = useState<{ name: string } | null>(null);
  const listTitleRef = useRef<HTMLHeadingElement>(null);

  const dismissAttempt = () => {
    const next = new URLSearchParams(search);
    next.delete('card_attempt');
    setSearch(next, { replace: true });
  };
  // The deleted item (and its button) is gone: the focus goes to the list's title. An effect, so it
  // runs after the closing dialog has given the focus back to its opener.
  useEffect(() => {
    if (deleted) listTitleRef.current?.focus();
  }, [deleted]);
  const message = deleted
    ? t('list.deleted', { name: deleted.name })
    : flash?.kind === 'deleted'
      ? t('list.deleted', { name: flash.name })
      : flash?.kind === 'mandateSigned'
        ? t('list.mandateSigned', { name: flash.name })
        : null;

  return (
    <Page width="wide">
      <h1 className={pageTitleClasses}>{t('list.title')}</h1>
      <p className="mt-1 text-gray-700 dark:text-gray-300">{t('list.intro')}</p>

      <div className="mt-6 space-y-4 empty:hidden">
        {attemptId && <CardAttemptBanner attemptId={attemptId} onDismiss={dismissAttempt} />}
      </div>
      <div role="status" className="empty:hidden [&:not(:empty)]:mt-4">
        {message && <Notice tone="success">{message}</Notice>}
      </div>

      <section aria-labelledby="saved-methods" className="mt-6">
        <h2
          id="saved-methods"
          ref={listTitleRef}
          tabIndex={-1}
          className={cn(sectionTitleClasses, 'focus:outline-none')}
        >
          {t('list.savedTitle')}
        </h2>
        <div className="mt-3">
          <SavedMethods onDeleted={(name) => setDeleted({ name })} />
        </div>
      </section>

      <SepaMandatesSection />

      <section aria-labelledby="add-method" className="mt-8">
        <h2 id="add-method" className={sectionTitleClasses}>
          {t('list.addTitle')}
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-3">
          <li>
            <OptionTile
              icon={<BankIcon className="size-6" />}
              label={t('list.add.bankAccount')}
              description={t('list.add.bankAccountHint')}
              to={paths.addBankAccount}
            />
          </li>
          <li>
            <OptionTile
              icon={<CardIcon className="size-6" />}
              label={t('list.add.creditCard')}
              description={t('list.add.creditCardHint')}
              to={paths.addCard}
            />
          </li>
          <li>
            <OptionTile
              icon={<TransferIcon className="size-6" />}
              label={t('list.add.bankTransfer')}
              description={t('list.add.bankTransferHint')}
              to={paths.addBankTransfer}
            />
          </li>
        </ul>
      </section>
    </Page>
  );
}

function SavedMethods({ onDeleted }: { onDeleted: (name: string) => void }) {
  const t = usePaymentMethodsTexts();
  const query = usePaymentMethods();
  // Accounts saved before mandates existed (never signed for) offer to sign one. One whose
  // mandate a newer one replaced does not: the customer chose the other account.
  const mandates = useSepaMandates();
  const canSignMandates = Boolean(mandates.data?.creditor);
  const signedFor = new Set(mandates.data?.mandates.map((m) => m.payment_method_id));
  useEffect(() => {
    if (query.error) console.error('Could not load the payment methods', query.error);
  }, [query.error]);

  return (
    <ListState
      query={query}
      isEmpty={query.data?.length === 0}
      skeleton={
        <ul className="grid gap-3 md:grid-cols-2">
          {Array.from({ length: 2 }, (_, i) => (
            <li key={i} className={cn(cardClasses, 'flex gap-3 p-4')}>
              <Skeleton className="size-11 rounded-xl" />
              <span className="flex-1 space-y-2">
                <Skeleton className="h-5 w-36" />
                <Skeleton className="h-4 w-48" />
                <Skeleton className="h-5 w-20 rounded-full" />
              </span>
            </li>
          ))}
        </ul>
      }
      empty={{ icon: CardIcon, title: t('list.empty'), hint: t('list.emptyHint') }}
      texts={{
        loading: t('common.loading'),
        loadError: t('list.loadError'),
        retry: t('common.retry'),
      }}
    >
      <ul aria-labelledby="saved-methods" className="grid gap-3 md:grid-cols-2">
        {query.data?.map((method) => (
          <li key={method.id} className="min-w-0">
            <MethodItem
              method={method}
              onDeleted={onDeleted}
              canSignMandate={
                canSignMandates && method.kind === 'bank_account' && !signedFor.has(method.id)
              }
            />
          </li>
        ))}
      </ul>
    </ListState>
  );
}
