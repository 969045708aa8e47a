import { useId, type Ref } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Checkbox } from '@/components/ui/text-field';
import { useSepaMandates } from '../api/get-sepa-mandates';
import { usePaymentMethodsTexts } from '../texts';
import { Notice } from './notice';

/**
 * The SEPA Core mandate the customer signs with a bank account (issue 23, item 6): the creditor
 * (name, address, identifier), the debtor and IBAN as typed above (or as saved, for an account
 * saved before mandates existed), "Pago recurrente", the standard
 * wording and the explicit acceptance. Where the tenant signs no mandates in the portal it says
 * so instead of showing a form that could not be signed.
 */
export function SepaMandateTerms({
  holder,
  iban,
  accepted,
  onAcceptedChange,
  error,
  disabled,
  checkboxRef,
  purpose = 'add',
}: {
  holder: string;
  iban: string;
  accepted: boolean;
  onAcceptedChange: (accepted: boolean) => void;
  error: boolean;
  disabled: boolean;
  checkboxRef?: Ref<HTMLInputElement>;
  /** `sign`: for a bank account already saved (the error says "to sign it", not "to save it"). */
  purpose?: 'add' | 'sign';
}) {
  const t = usePaymentMethodsTexts();
  const query = useSepaMandates();
  const titleId = useId();
  const evidenceId = useId();

  if (query.isPending) {
    return (
      <div className="space-y-3 border-t border-gray-200 pt-5 dark:border-gray-700" aria-busy>
        <span className="sr-only">{t('common.loading')}</span>
        <Skeleton className="h-6 w-56" />
        <Skeleton className="h-40 w-full rounded-xl" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <Notice
        tone="error"
        action={
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      >
        {t('mandate.loadError')}
      </Notice>
    );
  }
  const creditor = query.data.creditor;
  if (!creditor) {
    return (
      <Notice tone="info">
        {purpose === 'sign' ? t('signMandate.unavailable') : t('mandate.unavailable')}
      </Notice>
    );
  }

  const row = (label: string, value: string, mono = false) => (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-300">
        {label}
      </dt>
      <dd
        className={
          mono
            ? 'font-mono break-all text-gray-900 dark:text-gray-50'
            : 'break-words text-gray-900 dark:text-gray-50'
        }
      >
        {value}
      </dd>
    </div>
  );
  const fromForm = (value: string) => value.trim() || t('mandate.fromForm');

  return (
    <section
      aria-labelledby={titleId}
      className="space-y-4 border-t border-gray-200 pt-5 dark:border-gray-700"
    >
      <div>
        <h2 id={titleId} className="text-base font-semibold text-gray-900 dark:text-gray-50">
          {t('mandate.title')}
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">{t('mandate.intro')}</p>
      </div>
      <div className="space-y-4 rounded-xl bg-gray-50 p-4 text-sm ring-1 ring-gray-200 dark:bg-gray-900/60 dark:ring-gray-700">
        <p className="font-semibold text-gray-900 dark:text-gray-50">
          {t('mandate.documentTitle')}
          <span className="block text-xs font-normal text-gray-600 dark:text-gray-300">
            {t('mandate.scheme')}
          </span>
        </p>
        <dl className="grid gap-3 sm:grid-cols-2">
          {row(t('mandate.creditorName'), creditor.name)}
          {row(t('mandate.creditorId'), creditor.identifier, true)}
          {creditor.address && row(t('mandate.creditorAddress'), creditor.address)}
          {row(t('mandate.debtorName'), fromForm(holder))}
          {row(t('mandate.iban'), fromForm(iban.toUpperCase()), Boolean(iban.trim()))}
          {row(t('mandate.paymentType'), t('mandate.recurrent'))}
          {row(t('mandate.reference'), t('mandate.referenceAssigned'))}
        </dl>
        <p className="leading-relaxed sm:text-justify text-gray-800 hyphens-auto dark:text-gray-200">
          {t('mandate.legal')}
        </p>
      </div>
      <Checkbox
        ref={checkboxRef}
        name="mandate_accepted"
        label={t('mandate.accept', { creditor: creditor.name })}
        checked={accepted}
        onChange={(event) => onAcceptedChange(event.target.checked)}
        error={
          error
            ? purpose === 'sign'
              ? t('signMandate.required')
              : t('mandate.required')
            : undefined
        }
        describedBy={evidenceId}
        disabled={disabled}
        required
      />
      <p id={evidenceId} className="text-xs text-gray-600 dark:text-gray-300">
        {t('mandate.evidence')}
      </p>
    </section>
  );
}
