import { zodResolver } from '@hookform/resolvers/zod';
import { ZContactRequest } from '@portal/contract/account';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { FormAlert, TextArea, TextField, Checkbox } from '@/components/ui/text-field';
import { Icon } from '@/components/ui/icons';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { cardClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { companyReach } from '@/lib/company-reach';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { useSendContactMessage } from '../api/send-contact-message';
import { type ContactT, useContactT } from '../use-contact-t';
import {
  type ContactFailure,
  type ContactField,
  type ContactFieldError,
  type ContactValues,
  checkText,
  contactFailureOf,
  contactFields,
  errorsFromServer,
  hasErrors,
  maxLengths,
} from '../utils/contact-form';

type ContactForm = {
  name: string;
  company: string;
  subject: string;
  message: string;
  acceptPrivacy: boolean;
};

/**
 * Spec §2 "Contact" (/contacto): name, company, subject, message and the privacy box, checked
 * with the contract's schema (`ZContactRequest`, the server's) before anything is sent; then the
 * success view with "send new message" (a fresh form) and back to home. The signed-in customer's
 * name comes filled in and the answer's address is said (review #18); the club's own mailbox is
 * shown beside the form. A refused or failed send keeps everything typed and says why.
 */
export function ContactScreen({
  before,
}: {
  /** Shown above the form (what other features offer here, composed in `app`). */
  before?: ReactNode;
} = {}) {
  const t = useContactT();
  const formId = useId();
  const { user } = useAuth();
  const { legal } = useVisualConfig();
  const { email: clubEmail, phone: clubPhone } = companyReach(legal);
  const blank = (): ContactForm => ({
    name: user?.name ?? '',
    company: '',
    subject: '',
    message: '',
    acceptPrivacy: false,
  });
  const form = useForm<ContactForm>({
    // The contract's schema reads the privacy box as `true` only; the form's box starts unticked.
    resolver: zodResolver(ZContactRequest) as unknown as Resolver<ContactForm>,
    defaultValues: blank(),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, formState, setError, reset, control } = form;
  const values = useWatch({ control }) as ContactForm;
  const [failure, setFailure] = useState<ContactFailure | null>(null);
  const [isSent, setSent] = useState(false);
  const send = useSendContactMessage();
  const successRef = useRef<HTMLHeadingElement>(null);
  const idOf = (field: ContactField) => `${formId}-${field}`;

  useEffect(() => {
    if (isSent) successRef.current?.focus();
  }, [isSent]);

  const onValid = (values: ContactForm) => {
    if (send.isPending) return;
    setFailure(null);
    send.mutate(values as ContactValues, {
      onSuccess: () => setSent(true),
      onError: (error) => {
        const why = contactFailureOf(error);
        if (why.key !== 'invalid') {
          setFailure(why);
          return;
        }
        const fromServer = errorsFromServer(error instanceof ApiError ? error.errors : undefined);
        // A refusal that names none of the form's fields has nothing to mark: say it failed.
        setFailure(hasErrors(fromServer) ? why : { key: 'generic' });
        let first = true;
        for (const field of contactFields) {
          const code = fromServer[field];
          if (!code) continue;
          setError(field, { message: code }, { shouldFocus: first });
          first = false;
        }
      },
    });
  };

  const startAgain = () => {
    reset(blank());
    setFailure(null);
    setSent(false);
    send.reset();
  };
  // Back on the form after "send new message": the first field takes the focus.
  const wasSent = useRef(false);
  useEffect(() => {
    if (wasSent.current && !isSent) document.getElementById(`${formId}-name`)?.focus();
    wasSent.current = isSent;
  }, [isSent, formId]);

  const message = values.message ?? '';
  // A text over its limit says so while typing, not only when sending.
  const errorOf = (field: ContactField): string | undefined => {
    const code = formState.errors[field]?.message as ContactFieldError | undefined;
    const value = values[field];
    const shown =
      code ??
      (field !== 'acceptPrivacy' &&
      typeof value === 'string' &&
      checkText(field, value) === 'too_long'
        ? 'too_long'
        : undefined);
    return shown && fieldErrorText(t, field, shown, values);
  };

  return (
    <Page width="form">
      <h1 className={pageTitleClasses}>{t('title')}</h1>
      {isSent ? (
        <section
          aria-labelledby={`${formId}-sent`}
          className={cn(
            cardClasses,
            'mt-6 flex flex-col items-center gap-3 p-6 text-center sm:p-8',
          )}
        >
          <span className="flex size-14 items-center justify-center rounded-full bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200">
            <Icon className="size-8" strokeWidth={2}>
              <path d="M5 12.5l4.5 4.5L19 7.5" />
            </Icon>
          </span>
          <h2
            id={`${formId}-sent`}
            ref={successRef}
            tabIndex={-1}
            className="text-xl font-bold text-gray-900 focus:outline-none dark:text-gray-50"
          >
            {t('success.title')}
          </h2>
          <p className="max-w-md text-gray-700 dark:text-gray-300">{t('success.description')}</p>
          <div className="mt-3 flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
            <Button onClick={startAgain}>{t('success.sendNew')}</Button>
            <Link to={paths.home} className={buttonClasses('secondary')}>
              {t('success.backToHome')}
            </Link>
          </div>
        </section>
      ) : (
        <>
          <p className="mt-2 text-gray-700 dark:text-gray-300">{t('description')}</p>
          {clubEmail && (
            <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
              {t('clubEmail')}{' '}
              <a
                href={`mailto:${clubEmail}`}
                className="font-medium wrap-anywhere text-primary-ink underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
              >
                {clubEmail}
              </a>
            </p>
          )}
          {clubPhone && (
            <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
              {t('clubPhone')}{' '}
              <a
                href={clubPhone.href}
                className="font-medium whitespace-nowrap text-primary-ink underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
              >
                {clubPhone.text}
              </a>
            </p>
          )}
          {before}
          <form
            noValidate
            aria-label={t('formLabel')}
            onSubmit={(event) => void handleSubmit(onValid)(event)}
            className={cn(cardClasses, 'mt-6 space-y-5 p-5 sm:p-6')}
          >
            <p className="text-sm text-gray-600 dark:text-gray-300">{t('fields.requiredNote')}</p>
            {failure && <FailureAlert failure={failure} t={t} />}
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField
                id={idOf('name')}
                label={t('fields.name')}
                autoComplete="name"
                required
                {...register('name')}
                error={errorOf('name')}
              />
              <TextField
                id={idOf('company')}
                label={t('fields.company')}
                autoComplete="organization"
                required
                {...register('company')}
                error={errorOf('company')}
              />
            </div>
            <TextField
              id={idOf('subject')}
              label={t('fields.subject')}
              autoComplete="off"
              required
              {...register('subject')}
              error={errorOf('subject')}
            />
            <TextArea
              id={idOf('message')}
              label={t('fields.message')}
              rows={7}
              required
              {...register('message')}
              error={errorOf('message')}
              count={{
                text: t('fields.characters', {
                  count: message.trim().length,
                  max: maxLengths.message,
                }),
                isOver: message.trim().length > maxLengths.message,
              }}
            />
            {user?.email && (
              <p className="text-sm text-gray-700 dark:text-gray-300">
                {t('replyTo', { email: user.email })}
              </p>
            )}
            <Checkbox
              id={idOf('acceptPrivacy')}
              required
              {...register('acceptPrivacy')}
              label={t('fields.acceptPrivacy')}
              error={errorOf('acceptPrivacy')}
              extra={
                // A new tab: reading the policy must not throw away the message being written.
                <a
                  href={paths.privacy}
                  target="_blank"
                  rel="noopener"
                  className="inline-flex min-h-11 w-fit items-center rounded text-sm font-medium text-primary-ink underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
                >
                  {t('fields.privacyLink')}
                  <span className="sr-only"> {t('fields.newTab')}</span>
                </a>
              }
            />
            <button
              type="submit"
              disabled={send.isPending}
              className={buttonClasses(
                'primary',
                'min-h-12 w-full text-base disabled:cursor-wait sm:w-auto',
              )}
            >
              {send.isPending && <Spinner size="sm" tone="current" />}
              {send.isPending ? t('submitting') : t('submit')}
            </button>
          </form>
        </>
      )}
    </Page>
  );
}

function fieldErrorText(
  t: ContactT,
  field: ContactField,
  code: ContactFieldError,
  values: ContactValues,
): string {
  switch (code) {
    case 'required':
      return t('validation.required');
    case 'privacy_required':
      return t('validation.privacyRequired');
    case 'too_long':
      return field === 'acceptPrivacy'
        ? t('validation.invalid')
        : t('validation.tooLong', {
            max: maxLengths[field],
            count: values[field].trim().length,
          });
    case 'invalid_characters':
      return t('validation.invalidCharacters');
    case 'invalid':
      return t('validation.invalid');
  }
}

/** Why the message was not sent, announced; what was typed stays in the form. */
function FailureAlert({ failure, t }: { failure: ContactFailure; t: ContactT }) {
  const text =
    failure.key === 'rateLimited'
      ? failure.minutes === undefined
        ? t('errors.rateLimitedLater')
        : t('errors.rateLimited', { count: failure.minutes })
      : t(`errors.${failure.key}`);
  return <FormAlert>{text}</FormAlert>;
}
