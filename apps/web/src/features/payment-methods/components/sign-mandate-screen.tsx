import { type FormEvent, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { cardClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { Page } from '@/components/ui/page';
import { ApiError } from '@/lib/api-client';
import { getLanguage } from '@/lib/i18n';
import { cn } from '@/utils/cn';
import { useSepaMandates } from '../api/get-sepa-mandates';
import { useSignMandate } from '../api/sign-mandate';
import { usePaymentMethodsTexts } from '../texts';
import { serverFieldErrors } from '../utils/field-rules';
import { methodName, type PaymentMethod } from '../utils/method-display';
import { MethodSummary } from './method-item';
import { MethodViewFrame } from './method-view';
import { Notice } from './notice';
import { SepaMandateTerms } from './sepa-mandate-terms';
import { useFieldErrorText } from './use-field-error-text';
import { withFlash } from './use-flash';

/** The saved fields the server may refuse to sign a mandate for (a 422 `errors` entry). */
const savedFields = ['iban', 'holder'] as const;

/**
 * "Firmar mandato SEPA" (/firmar-mandato?id=<method id>; issue 23, item 6): the SEPA mandate of a
 * bank account saved before mandates existed, signed with the same terms and explicit acceptance
 * as adding an account, for the IBAN and holder already saved (nothing typed again). The server
 * keeps the time, address and browser, makes the PDF and tells the provider.
 */
export function SignMandateScreen({ id }: { id: string | null }) {
  return (
    <MethodViewFrame id={id} kind="bank_account">
      {(method) => <SignMandate method={method} />}
    </MethodViewFrame>
  );
}

function SignMandate({ method }: { method: PaymentMethod }) {
  const t = usePaymentMethodsTexts();
  const fieldErrorText = useFieldErrorText();
  const navigate = useNavigate();
  const mandates = useSepaMandates();
  const sign = useSignMandate();
  const [accepted, setAccepted] = useState(false);
  const [mandateError, setMandateError] = useState(false);
  const checkboxRef = useRef<HTMLInputElement>(null);
  const name = methodName(method, t);
  const hasActive = Boolean(
    mandates.data?.mandates.some((m) => m.payment_method_id === method.id && m.status === 'active'),
  );
  const canSign = Boolean(mandates.data?.creditor) && !hasActive;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sign.isPending || !canSign) return;
    if (!accepted) {
      setMandateError(true);
      checkboxRef.current?.focus();
      return;
    }
    sign.mutate(
      {
        id: method.id,
        body: { mandate_accepted: true, mandate_language: getLanguage() },
      },
      {
        onSuccess: () =>
          navigate(paths.paymentMethods, { state: withFlash({ kind: 'mandateSigned', name }) }),
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) void mandates.refetch();
          // Only the acceptance's own 422 is "you must accept": the saved IBAN or holder the
          // server refuses (an account saved before its checks) says why below instead.
          if (error instanceof ApiError && error.status === 422 && error.errors?.mandate_accepted) {
            setMandateError(true);
          }
        },
      },
    );
  };

  const alreadyActive =
    hasActive || (sign.error instanceof ApiError && sign.error.code === 'mandate_active');
  const refused = sign.error instanceof ApiError && sign.error.status === 422 ? sign.error : null;
  const savedFieldErrors = serverFieldErrors(refused?.errors, savedFields);
  const refusedFields = savedFields.flatMap((field) => {
    const text = fieldErrorText(savedFieldErrors[field], field);
    return text ? [{ field, text }] : [];
  });
  const isAcceptanceError = Boolean(refused?.errors?.mandate_accepted);

  return (
    <Page width="form">
      <h1 className={pageTitleClasses}>{t('signMandate.title')}</h1>
      <p className="mt-1 text-gray-700 dark:text-gray-300">{t('signMandate.intro')}</p>

      <form
        noValidate
        onSubmit={submit}
        aria-busy={sign.isPending}
        className={cn(cardClasses, 'mt-6 space-y-5 p-4 sm:p-6')}
      >
        <div>
          <p className="text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-300">
            {t('signMandate.account')}
          </p>
          <p className="font-semibold break-words text-gray-900 dark:text-gray-50">{name}</p>
          <p className="text-sm break-words text-gray-700 dark:text-gray-300">
            <MethodSummary method={method} />
          </p>
        </div>

        {alreadyActive ? (
          <Notice
            tone="info"
            action={
              <Link to={paths.paymentMethods} className={buttonClasses('secondary', 'px-3')}>
                {t('signMandate.back')}
              </Link>
            }
          >
            {t('signMandate.alreadyActive')}
          </Notice>
        ) : (
          <>
            <SepaMandateTerms
              holder={method.holder}
              iban={method.iban ?? ''}
              accepted={accepted}
              onAcceptedChange={(value) => {
                setAccepted(value);
                if (value) setMandateError(false);
                if (sign.isError) sign.reset();
              }}
              error={mandateError}
              disabled={sign.isPending}
              checkboxRef={checkboxRef}
              purpose="sign"
            />
            {canSign && (
              <div className="space-y-3 border-t border-gray-200 pt-5 dark:border-gray-700">
                <Button
                  type="submit"
                  disabled={sign.isPending}
                  className="w-full sm:w-auto sm:min-w-48"
                >
                  {sign.isPending ? t('signMandate.signing') : t('signMandate.submit')}
                </Button>
                {refusedFields.length > 0 ? (
                  <Notice tone="error">
                    <dl className="space-y-1">
                      {refusedFields.map(({ field, text }) => (
                        <div key={field}>
                          <dt className="font-semibold">{t(`fields.${field}`)}</dt>
                          <dd>{text}</dd>
                        </div>
                      ))}
                    </dl>
                  </Notice>
                ) : (
                  sign.isError &&
                  !isAcceptanceError && (
                    <Notice tone="error">
                      {sign.error instanceof ApiError && sign.error.status === 0
                        ? t('common.network')
                        : t('signMandate.error')}
                    </Notice>
                  )
                )}
              </div>
            )}
          </>
        )}
      </form>
    </Page>
  );
}
