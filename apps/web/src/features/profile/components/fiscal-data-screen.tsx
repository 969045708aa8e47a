import { zodResolver } from '@hookform/resolvers/zod';
import {
  fiscalDataFields,
  fiscalNoteMax,
  type TFiscalData,
  type TFiscalDataChangeRequest,
  ZFiscalDataChangeRequest,
} from '@portal/contract/fiscal-data';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { cardClasses, pageTitleClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { FormAlert, TextArea, TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useTranslation } from '@/lib/use-translation';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { useFiscalDataRequests } from '../api/get-fiscal-data-requests';
import { type UserProfile, useUserProfile } from '../api/get-user-profile';
import { useRequestFiscalDataChange } from '../api/request-fiscal-data-change';
import { FormLoadError, FormLoading } from './form-screen-states';

type Field = keyof TFiscalDataChangeRequest;

/** The longest value of each field (the contract's), said in the error when one is too long. */
const maxLengths: Record<Field, number> = {
  invoice_name: 200,
  nif: 20,
  address: 300,
  city: 100,
  country: 100,
  comment: fiscalNoteMax,
};

const autoCompletes: Record<keyof TFiscalData, string> = {
  invoice_name: 'organization',
  nif: 'off',
  address: 'street-address',
  city: 'address-level2',
  country: 'country-name',
};

/** The form starts from the data as it stands (the profile's fiscal card). */
const fiscalOf = (profile: UserProfile): TFiscalDataChangeRequest => ({
  invoice_name:
    profile.invoice_name.trim() ||
    [profile.name, profile.lastName].filter((part) => part.trim()).join(' '),
  nif: profile.nif,
  address: profile.address,
  city: profile.city,
  country: profile.country.trim() || 'España',
  comment: '',
});

type Failure = 'invalid' | 'pendingAlready' | 'unchanged' | 'sendError';

/**
 * Issue 23, item 1: fiscal data changes are a request the organisation reviews. The form starts
 * from the current data, is checked with the contract's schema (the server's: the NIF, NIE or CIF
 * with its check character), and sends the new values with an optional comment; the profile then
 * shows the request "Pendiente de revisión". While one waits, the screen says so instead.
 */
export function FiscalDataScreen() {
  const { t } = useTranslation('fiscal-data');
  const { user } = useAuth();
  const profile = useUserProfile(user?.id ?? '');
  const requests = useFiscalDataRequests();
  const failed = profile.isError || requests.isError;
  return (
    <Page width="form">
      <h1 className={pageTitleClasses}>{t('form.title')}</h1>
      {profile.data && requests.data ? (
        requests.data.pending ? (
          <div className="mt-6 space-y-6">
            <p
              role="status"
              className="rounded-xl bg-amber-50 p-4 text-gray-900 ring-1 ring-amber-200 dark:bg-amber-950/40 dark:text-gray-50 dark:ring-amber-900"
            >
              {t('form.pendingAlready')}
            </p>
            <Link to={paths.userProfile} className={buttonClasses('secondary', 'min-h-12')}>
              {t('form.back')}
            </Link>
          </div>
        ) : (
          <FiscalDataForm profile={profile.data} />
        )
      ) : failed ? (
        <FormLoadError
          message={t('form.loadError')}
          retryLabel={t('card.retry')}
          onRetry={() => {
            void profile.refetch();
            void requests.refetch();
          }}
          retrying={profile.isFetching || requests.isFetching}
        />
      ) : (
        <FormLoading label={t('form.loading')} />
      )}
    </Page>
  );
}

function FiscalDataForm({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation('fiscal-data');
  const { companyName } = useVisualConfig();
  const navigate = useNavigate();
  const formId = useId();
  const form = useForm<TFiscalDataChangeRequest>({
    resolver: zodResolver(ZFiscalDataChangeRequest),
    defaultValues: fiscalOf(profile),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, formState, setError, control } = form;
  const send = useRequestFiscalDataChange();
  const [failure, setFailure] = useState<Failure | null>(null);
  const comment = useWatch({ control, name: 'comment' }) ?? '';

  const onValid = (values: TFiscalDataChangeRequest) => {
    if (send.isPending) return;
    setFailure(null);
    send.mutate(values, {
      // The profile shows the request, pending (the mutation stored it for the profile's query).
      onSuccess: () => void navigate(paths.userProfile),
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'fiscal_request_pending')
          return setFailure('pendingAlready');
        if (error instanceof ApiError && error.code === 'fiscal_data_unchanged')
          return setFailure('unchanged');
        const named = error instanceof ApiError && error.status === 422 ? error.errors : undefined;
        const fields = (Object.keys(maxLengths) as Field[]).filter((f) => named?.[f]?.[0]);
        setFailure(fields.length > 0 ? 'invalid' : 'sendError');
        fields.forEach((field, i) =>
          setError(field, { message: named?.[field]?.[0] ?? '' }, { shouldFocus: i === 0 }),
        );
      },
    });
  };

  const errorOf = (field: Field): string | undefined => {
    const code = formState.errors[field]?.message;
    if (!code) return undefined;
    switch (code) {
      case 'too_long':
        return t('errors.tooLong', { max: maxLengths[field] });
      case 'invalid_characters':
        return t('errors.invalidCharacters');
      case 'invalid_nif':
        return t('errors.invalidNif');
      default:
        return t('errors.required');
    }
  };
  const hints: Partial<Record<Field, string>> = {
    invoice_name: t('form.hints.invoice_name'),
    nif: t('form.hints.nif'),
  };

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} className="mt-2">
      <p className="text-gray-700 dark:text-gray-300">
        {t('form.intro', { company: companyName })}
      </p>
      {failure && (
        <div className="mt-4">
          <FormAlert>{t(`form.${failure}`)}</FormAlert>
        </div>
      )}
      <section
        aria-labelledby={`${formId}-fiscal`}
        className={cn(cardClasses, 'mt-6 space-y-4 p-5')}
      >
        <h2 id={`${formId}-fiscal`} className={sectionTitleClasses}>
          {t('form.section')}
        </h2>
        {fiscalDataFields.map((name) => (
          <TextField
            key={name}
            id={`${formId}-${name}`}
            label={t(`form.fields.${name}`)}
            error={errorOf(name)}
            hint={hints[name]}
            autoComplete={autoCompletes[name]}
            maxLength={maxLengths[name]}
            {...(name === 'nif' ? { autoCapitalize: 'characters', spellCheck: false } : {})}
            {...register(name)}
          />
        ))}
        <TextArea
          id={`${formId}-comment`}
          label={t('form.fields.comment', { company: companyName })}
          hint={t('form.hints.comment')}
          error={errorOf('comment')}
          rows={3}
          count={{
            text: t('form.count', { count: comment.length, max: fiscalNoteMax }),
            isOver: comment.length > fiscalNoteMax,
          }}
          {...register('comment')}
        />
      </section>
      <div className="mt-6 flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={send.isPending} className="min-h-12">
          {send.isPending ? (
            <>
              <Spinner size="sm" tone="current" />
              {t('form.submitting')}
            </>
          ) : (
            t('form.submit')
          )}
        </Button>
        <Link to={paths.userProfile} className={buttonClasses('secondary', 'min-h-12')}>
          {t('form.back')}
        </Link>
      </div>
    </form>
  );
}
