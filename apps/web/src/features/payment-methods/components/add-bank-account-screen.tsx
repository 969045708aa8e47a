import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { cardClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api-client';
import { getLanguage } from '@/lib/i18n';
import { cn } from '@/utils/cn';
import { useAddBankAccount } from '../api/add-bank-account';
import { useSepaMandates } from '../api/get-sepa-mandates';
import { usePaymentMethodsTexts } from '../texts';
import {
  addBankAccountBody,
  type BankAccountField,
  type BankAccountForm,
  emptyBankAccountForm,
  entityOfIban,
  validateBankAccount,
} from '../utils/bank-account-form';
import { type FieldErrors, hasErrors, maxLengths, serverFieldErrors } from '../utils/field-rules';
import { Notice } from './notice';
import { SepaMandateTerms } from './sepa-mandate-terms';
import { limitReached } from '../utils/limit-error';
import { useFieldErrorText } from './use-field-error-text';
import { withFlash } from './use-flash';
import { Page } from '@/components/ui/page';

const fieldOrder: readonly BankAccountField[] = ['iban', 'holder', 'nif', 'entity', 'alias'];

/**
 * Spec §2 "Add bank account" (/add-bank-account): IBAN, holder, NIF/NIE/CIF and entity, all
 * required (the entity comes from the IBAN's bank code when it is known), and an optional alias.
 * Errors show on sending and clear as the customer types; the server's verdict shows the same way.
 * A saved account is "No verificada" until the provider verifies it: its view comes next.
 * Where the tenant collects by direct debit, the customer signs the account's SEPA mandate here
 * (issue 23, item 6): nothing is saved without its explicit acceptance.
 */
export function AddBankAccountScreen() {
  const t = usePaymentMethodsTexts();
  const errorText = useFieldErrorText();
  const navigate = useNavigate();
  const [form, setForm] = useState<BankAccountForm>(emptyBankAccountForm);
  const [errors, setErrors] = useState<FieldErrors<BankAccountField>>({});
  const add = useAddBankAccount();
  const formId = useId();
  const fieldId = (name: BankAccountField) => `${formId}-${name}`;
  const derivedEntity = entityOfIban(form.iban);
  const mandates = useSepaMandates();
  const needsMandate = Boolean(mandates.data?.creditor);
  const [accepted, setAccepted] = useState(false);
  const [mandateError, setMandateError] = useState(false);
  const mandateRef = useRef<HTMLInputElement>(null);

  const change = (field: BankAccountField, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    // Spec §5: errors clear as the user types.
    setErrors((current) => ({ ...current, [field]: undefined }));
    if (add.isError) add.reset();
  };

  // The first invalid field takes the focus once its error is shown (and tied to it).
  const [focusRequest, setFocusRequest] = useState<{ field: BankAccountField } | null>(null);
  useEffect(() => {
    if (focusRequest) document.getElementById(`${formId}-${focusRequest.field}`)?.focus();
  }, [focusRequest, formId]);
  const focusFirst = (found: FieldErrors<BankAccountField>) => {
    const first = fieldOrder.find((field) => found[field]);
    if (first) setFocusRequest({ field: first });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    const found = validateBankAccount(form);
    setErrors(found);
    const missingMandate = needsMandate && !accepted;
    setMandateError(missingMandate);
    if (hasErrors(found)) {
      focusFirst(found);
      return;
    }
    if (missingMandate) {
      mandateRef.current?.focus();
      return;
    }
    const mandate = needsMandate
      ? { mandate_accepted: accepted, mandate_language: getLanguage() }
      : {};
    add.mutate(
      { ...addBankAccountBody(form), ...mandate },
      {
        onSuccess: (method) =>
          navigate(`${paths.bankAccount}?id=${encodeURIComponent(method.id)}`, {
            state: withFlash({ kind: 'accountAdded' }),
          }),
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) {
            const fromServer = serverFieldErrors(error.errors, fieldOrder);
            setErrors(fromServer);
            focusFirst(fromServer);
            if (error.errors?.mandate_accepted && !hasErrors(fromServer)) {
              // The tenant started collecting by direct debit meanwhile: show the mandate to sign.
              setMandateError(true);
              void mandates.refetch();
            }
          }
        },
      },
    );
  };

  const limit = limitReached(add.error);
  const isFieldError =
    add.error instanceof ApiError &&
    add.error.status === 422 &&
    (hasErrors(errors) || mandateError);
  const field = (name: BankAccountField) => ({
    id: fieldId(name),
    value: form[name],
    onChange: (event: { target: { value: string } }) => change(name, event.target.value),
    error: errorText(errors[name], name),
    maxLength: maxLengths[name],
    disabled: add.isPending,
  });

  return (
    <Page width="form">
      <h1 className={pageTitleClasses}>{t('addBankAccount.title')}</h1>
      <p className="mt-1 text-gray-700 dark:text-gray-300">{t('addBankAccount.intro')}</p>

      <form
        noValidate
        onSubmit={submit}
        aria-busy={add.isPending}
        className={cn(cardClasses, 'mt-6 space-y-5 p-4 sm:p-6')}
      >
        <TextField
          label={t('fields.iban')}
          hint={t('fields.ibanHint')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
          className="[&_input]:font-mono [&_input]:uppercase"
          {...field('iban')}
        />
        <TextField label={t('fields.holder')} autoComplete="name" required {...field('holder')} />
        <TextField
          label={t('fields.nif')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
          className="[&_input]:uppercase"
          {...field('nif')}
        />
        {derivedEntity ? (
          <TextField
            label={t('fields.entity')}
            hint={t('fields.entityDerived')}
            value={derivedEntity}
            readOnly
          />
        ) : (
          <TextField label={t('fields.entity')} autoComplete="off" required {...field('entity')} />
        )}
        <TextField
          label={t('fields.alias')}
          hint={t('fields.accountAliasHint')}
          autoComplete="off"
          {...field('alias')}
        />

        <SepaMandateTerms
          holder={form.holder}
          iban={form.iban}
          accepted={accepted}
          onAcceptedChange={(value) => {
            setAccepted(value);
            if (value) setMandateError(false);
            if (add.isError) add.reset();
          }}
          error={mandateError}
          disabled={add.isPending}
          checkboxRef={mandateRef}
        />

        <div className="space-y-3 border-t border-gray-200 pt-5 dark:border-gray-700">
          <Button type="submit" disabled={add.isPending} className="w-full sm:w-auto sm:min-w-48">
            {add.isPending ? t('common.saving') : t('addBankAccount.submit')}
          </Button>
          {add.isError && !isFieldError && (
            <Notice tone="error">
              {limit
                ? t(`limits.${limit.key}`, { max: limit.max })
                : add.error instanceof ApiError && add.error.status === 0
                  ? t('common.network')
                  : t('addBankAccount.error')}
            </Notice>
          )}
        </div>
      </form>
    </Page>
  );
}
