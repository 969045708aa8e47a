import { zodResolver } from '@hookform/resolvers/zod';
import { contactDataFields, type TContactData, ZContactData } from '@portal/contract/account';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { cardClasses, pageTitleClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { FormAlert, TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useTranslation } from '@/lib/use-translation';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { useUpdateContactData } from '../api/update-contact-data';
import { type UserProfile, useUserProfile } from '../api/get-user-profile';
import { FormLoadError, FormLoading } from './form-screen-states';

type Field = keyof TContactData;

/** The longest value of each field (the contract's), said in the error when one is too long. */
const maxLengths: Record<Field, number> = {
  phone: 40,
  invoice_email: 254,
  shipping_address: 300,
  shipping_cp: 20,
  shipping_city: 100,
  shipping_province: 100,
  shipping_country: 100,
};

const contactOf = (profile: UserProfile): TContactData =>
  Object.fromEntries(
    contactDataFields.map((field) => [field, profile[field] ?? '']),
  ) as TContactData;

/**
 * Issue 23, item 1: the customer keeps their telephone, invoice e-mail and postal address up to
 * date. Checked with the contract's schema (the server's) before sending; the server's refusal
 * marks the fields it names; a failed save keeps what was typed. The organisation hears of the
 * change by webhook; the sign-in e-mail and the fiscal data are not changed here, and the screen
 * says where they are.
 */
export function ContactDataScreen() {
  const { t } = useTranslation('profile');
  const { user } = useAuth();
  const profile = useUserProfile(user?.id ?? '');
  return (
    <Page width="form">
      <h1 className={pageTitleClasses}>{t('contactData.title')}</h1>
      {profile.data ? (
        <ContactDataForm profile={profile.data} />
      ) : profile.isError ? (
        <FormLoadError
          message={t('contactData.loadError')}
          retryLabel={t('contactData.retry')}
          onRetry={() => void profile.refetch()}
          retrying={profile.isFetching}
        />
      ) : (
        <FormLoading label={t('contactData.loading')} />
      )}
    </Page>
  );
}

function ContactDataForm({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation('profile');
  const { companyName } = useVisualConfig();
  const formId = useId();
  const form = useForm<TContactData>({
    resolver: zodResolver(ZContactData),
    defaultValues: contactOf(profile),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, formState, setError, reset } = form;
  const save = useUpdateContactData();
  const [failure, setFailure] = useState<'invalid' | 'saveError' | null>(null);
  const [saved, setSaved] = useState(false);
  const savedRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (saved) savedRef.current?.focus();
  }, [saved]);

  const onValid = (values: TContactData) => {
    if (save.isPending) return;
    setFailure(null);
    setSaved(false);
    save.mutate(values, {
      onSuccess: (updated) => {
        reset(contactOf(updated));
        setSaved(true);
      },
      onError: (error) => {
        const named = error instanceof ApiError && error.status === 422 ? error.errors : undefined;
        const fields = contactDataFields.filter((field) => named?.[field]?.[0]);
        setFailure(fields.length > 0 ? 'invalid' : 'saveError');
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
      case 'invalid_email':
        return t('errors.invalidEmail');
      default:
        return field === 'phone' ? t('errors.invalidPhone') : t('errors.invalidPostalCode');
    }
  };
  const field = (
    name: Field,
    label: string,
    options: { hint?: string; type?: string; autoComplete: string },
  ) => (
    <TextField
      id={`${formId}-${name}`}
      label={label}
      error={errorOf(name)}
      hint={options.hint}
      type={options.type ?? 'text'}
      autoComplete={options.autoComplete}
      maxLength={maxLengths[name]}
      {...register(name)}
    />
  );

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} className="mt-2">
      <p className="text-gray-700 dark:text-gray-300">
        {t('contactData.intro', { company: companyName })}
      </p>
      {saved && (
        <div
          ref={savedRef}
          tabIndex={-1}
          role="status"
          className="mt-4 rounded-xl bg-green-50 p-3 text-sm font-medium text-green-900 ring-1 ring-green-200 dark:bg-green-950/50 dark:text-green-100 dark:ring-green-900"
        >
          {t('contactData.saved', { company: companyName })}
        </div>
      )}
      {failure && (
        <div className="mt-4">
          <FormAlert>{t(`contactData.${failure}`)}</FormAlert>
        </div>
      )}
      <section
        aria-labelledby={`${formId}-contact`}
        className={cn(cardClasses, 'mt-6 space-y-4 p-5')}
      >
        <h2 id={`${formId}-contact`} className={sectionTitleClasses}>
          {t('contactData.contactSection')}
        </h2>
        {field('phone', t('contactData.fields.phone'), {
          type: 'tel',
          autoComplete: 'tel',
          hint: t('contactData.hints.phone'),
        })}
        {field('invoice_email', t('contactData.fields.invoiceEmail'), {
          type: 'email',
          autoComplete: 'email',
          hint: t('contactData.hints.invoiceEmail', { email: profile.email }),
        })}
      </section>
      <section
        aria-labelledby={`${formId}-address`}
        className={cn(cardClasses, 'mt-6 space-y-4 p-5')}
      >
        <h2 id={`${formId}-address`} className={sectionTitleClasses}>
          {t('contactData.addressSection')}
        </h2>
        {field('shipping_address', t('contactData.fields.shippingAddress'), {
          autoComplete: 'street-address',
        })}
        <div className="grid gap-4 sm:grid-cols-2">
          {field('shipping_cp', t('contactData.fields.postalCode'), {
            autoComplete: 'postal-code',
          })}
          {field('shipping_city', t('contactData.fields.city'), { autoComplete: 'address-level2' })}
          {field('shipping_province', t('contactData.fields.province'), {
            autoComplete: 'address-level1',
          })}
          {field('shipping_country', t('contactData.fields.country'), {
            autoComplete: 'country-name',
          })}
        </div>
      </section>
      <p className="mt-6 text-sm text-gray-600 dark:text-gray-300">
        {t('contactData.notHere', { company: companyName })}
      </p>
      <div className="mt-6 flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending} className="min-h-12">
          {save.isPending ? (
            <>
              <Spinner size="sm" tone="current" />
              {t('contactData.saving')}
            </>
          ) : (
            t('contactData.save')
          )}
        </Button>
        <Link to={paths.userProfile} className={buttonClasses('secondary', 'min-h-12')}>
          {t('contactData.back')}
        </Link>
      </div>
    </form>
  );
}
