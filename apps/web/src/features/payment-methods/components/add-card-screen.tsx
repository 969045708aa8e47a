import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cardClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { ApiError } from '@/lib/api-client';
import { getLanguage } from '@/lib/i18n';
import { cn } from '@/utils/cn';
import { useAddCard } from '../api/add-card';
import { usePaymentMethodsTexts } from '../texts';
import { maxLengths, validateAlias } from '../utils/field-rules';
import { limitReached } from '../utils/limit-error';
import { MainMethodField } from './main-method-field';
import { LockCardIcon } from './method-icons';
import { Notice } from './notice';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';

/**
 * Spec §2 "Add card" (/añadir-tarjeta), PCI DSS SAQ A: the customer types only an optional alias
 * here. "Continue" starts a Redsys tokenisation and posts its signed form to the gateway, where the
 * card's number, expiry and CVC are typed; the gateway sends the browser back to the list, which
 * verifies the outcome. The reference number of the spec's form is the gateway's token.
 */
export function AddCardScreen() {
  const t = usePaymentMethodsTexts();
  const [alias, setAlias] = useState('');
  const [aliasError, setAliasError] = useState<string | undefined>();
  const addCard = useAddCard();
  const { reset } = addCard;
  // Pending, then leaving for the gateway: the button keeps loading until the page is gone.
  const isStarting = addCard.isPending || addCard.isSuccess;

  // Back from the gateway with the browser's Back button: the page is restored as it was left.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (isStarting) return;
    const code = validateAlias(alias);
    if (code) {
      setAliasError(
        code === 'invalid_characters'
          ? t('validation.invalidCharacters')
          : t('validation.tooLong', { max: maxLengths.alias }),
      );
      return;
    }
    const trimmed = alias.trim();
    addCard.mutate({ ...(trimmed ? { alias: trimmed } : {}), language: getLanguage() });
  };

  const limit = limitReached(addCard.error);
  const errorText = limit
    ? t(`limits.${limit.key}`, { max: limit.max })
    : addCard.error instanceof ApiError && addCard.error.code === 'payment_unavailable'
      ? t('addCard.errors.unavailable')
      : addCard.error instanceof ApiError && addCard.error.status === 0
        ? t('common.network')
        : t('addCard.errors.generic');

  return (
    <Page width="form">
      <h1 className={pageTitleClasses}>{t('addCard.title')}</h1>
      <p className="mt-1 text-gray-700 dark:text-gray-300">{t('addCard.intro')}</p>

      <form
        noValidate
        onSubmit={submit}
        aria-busy={isStarting}
        className={cn(cardClasses, 'mt-6 space-y-5 p-4 sm:p-6')}
      >
        <div className="flex gap-3 rounded-xl bg-gray-50 p-4 text-sm text-gray-800 dark:bg-gray-900/60 dark:text-gray-200">
          <LockCardIcon className="size-6 shrink-0 text-primary-ink" />
          <div>
            <p className="font-semibold text-gray-900 dark:text-gray-50">
              {t('addCard.secureTitle')}
            </p>
            <p className="mt-1">{t('addCard.secureText')}</p>
            <p className="mt-1">{t('addCard.noCharge')}</p>
          </div>
        </div>

        <TextField
          label={t('fields.alias')}
          hint={t('fields.cardAliasHint')}
          value={alias}
          onChange={(event) => {
            setAlias(event.target.value);
            setAliasError(undefined);
          }}
          error={aliasError}
          maxLength={maxLengths.alias}
          autoComplete="off"
          disabled={isStarting}
        />

        <MainMethodField before="save" />

        <div className="space-y-3 border-t border-gray-200 pt-5 dark:border-gray-700">
          <Button type="submit" disabled={isStarting} className="w-full sm:w-auto sm:min-w-64">
            {isStarting && <Spinner size="md" tone="current" />}
            {isStarting ? t('addCard.redirecting') : t('addCard.submit')}
          </Button>
          <p role="status" className="sr-only">
            {isStarting ? t('addCard.redirecting') : ''}
          </p>
          {addCard.isError && <Notice tone="error">{errorText}</Notice>}
        </div>
      </form>
    </Page>
  );
}
