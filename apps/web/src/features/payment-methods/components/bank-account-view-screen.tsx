import { Button } from '@/components/ui/button';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';
import { useRequestVerification } from '../api/request-verification';
import { usePaymentMethodsTexts } from '../texts';
import type { PaymentMethod } from '../utils/method-display';
import { limitReached } from '../utils/limit-error';
import {
  type DetailRow,
  formatCreatedAt,
  MethodActions,
  MethodDetails,
  MethodHeading,
  MethodViewFrame,
} from './method-view';
import { Notice } from './notice';
import { useFlash } from './use-flash';
import { Page } from '@/components/ui/page';

/**
 * Spec §2 "Bank account view" (/bank-account?id=<method id>): IBAN, holder, NIF and entity; the
 * alias and holder can be edited; "No verificada" until the provider verifies it, with the
 * activate-account button that asks for it; main-method request; delete.
 */
export function BankAccountViewScreen({ id }: { id: string | null }) {
  const flash = useFlash();
  return (
    <MethodViewFrame id={id} kind="bank_account">
      {(method) => <BankAccountView method={method} justAdded={flash?.kind === 'accountAdded'} />}
    </MethodViewFrame>
  );
}

function BankAccountView({ method, justAdded }: { method: PaymentMethod; justAdded: boolean }) {
  const t = usePaymentMethodsTexts();
  const rows: DetailRow[] = [];
  if (method.iban) rows.push({ label: t('fields.iban'), value: method.iban, mono: true });
  rows.push({ label: t('fields.holder'), value: method.holder });
  if (method.nif) rows.push({ label: t('fields.nif'), value: method.nif, mono: true });
  if (method.entity) rows.push({ label: t('fields.entity'), value: method.entity });
  if (method.alias) rows.push({ label: t('fields.aliasName'), value: method.alias });
  const added = formatCreatedAt(method.created_at);
  if (added) rows.push({ label: t('fields.addedOn'), value: added });

  return (
    <Page width="form" className="space-y-6">
      {justAdded && (
        <Notice tone="success" live>
          {t('bankAccountView.added')}
        </Notice>
      )}
      <MethodHeading method={method} />
      {method.status === 'unverified' && <Activation method={method} />}
      <MethodDetails
        method={method}
        title={t('bankAccountView.details')}
        rows={rows}
        editable={['alias', 'holder']}
      />
      <MethodActions method={method} />
    </Page>
  );
}

/** "Activar cuenta": asks the provider to verify the account; then it waits for the review. */
function Activation({ method }: { method: PaymentMethod }) {
  const t = usePaymentMethodsTexts();
  const request = useRequestVerification();
  // `null`: nothing to verify any more; the method read again leaves this section.
  const isRequested =
    method.pending_requests.includes('verification') ||
    (request.isSuccess && request.data !== null);
  const limit = limitReached(request.error);
  return (
    <section aria-labelledby="activation" className={cn(cardClasses, 'p-4 sm:p-6')}>
      <h2 id="activation" className={sectionTitleClasses}>
        {t('bankAccountView.activateTitle')}
      </h2>
      <div role="status" className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        {isRequested ? t('bankAccountView.activationPending') : t('bankAccountView.activateText')}
      </div>
      {!isRequested && (
        <Button
          className="mt-4 w-full sm:w-auto"
          onClick={() => request.mutate(method.id)}
          disabled={request.isPending}
        >
          {request.isPending ? t('bankAccountView.activating') : t('bankAccountView.activate')}
        </Button>
      )}
      {request.isError && (
        <Notice tone="error" className="mt-3">
          {limit
            ? t(`limits.${limit.key}`, { max: limit.max })
            : t('bankAccountView.activateError')}
        </Notice>
      )}
    </section>
  );
}
