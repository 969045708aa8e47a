import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertIcon, Icon } from '@/components/ui/icons';
import { cardClasses, pageClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/utils/cn';
import { useSendContactMessage } from '../api/send-contact-message';
import { type ContactT, useContactT } from '../use-contact-t';
import {
  type ContactErrors,
  type ContactFailure,
  type ContactField,
  type ContactFieldError,
  type ContactValues,
  checkText,
  contactFailureOf,
  emptyContact,
  errorsFromServer,
  firstInvalid,
  hasErrors,
  maxLengths,
  validateContact,
} from '../utils/contact-form';
import { Checkbox, TextArea, TextInput } from './contact-fields';

/**
 * Spec §2 "Contact" (/contacto): name, company, subject, message and the privacy box, checked as
 * spec §5 says before anything is sent; then the success view with "send new message" (a fresh
 * form) and back to home. A refused or failed send keeps everything typed and says why: the
 * server's field errors on their fields, too many messages, no connection.
 */
export function ContactScreen() {
  const t = useContactT();
  const formId = useId();
  const [values, setValues] = useState<ContactValues>(emptyContact);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [failure, setFailure] = useState<ContactFailure | null>(null);
  const [isSent, setSent] = useState(false);
  const send = useSendContactMessage();
  const successRef = useRef<HTMLHeadingElement>(null);
  const idOf = (field: ContactField) => `${formId}-${field}`;
  const focusField = (field: ContactField) => document.getElementById(idOf(field))?.focus();

  useEffect(() => {
    if (isSent) successRef.current?.focus();
  }, [isSent]);

  const focusFirst = (found: ContactErrors) => {
    const field = firstInvalid(found);
    if (field) focusField(field);
  };

  const change = <F extends ContactField>(field: F, value: ContactValues[F]) => {
    setValues((current) => ({ ...current, [field]: value }));
    // The field's error goes as it is corrected; an over-long text keeps saying so (live below).
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send.isPending) return;
    const found = validateContact(values);
    setErrors(found);
    setFailure(null);
    if (hasErrors(found)) {
      focusFirst(found);
      return;
    }
    send.mutate(values, {
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
        setErrors(fromServer);
        focusFirst(fromServer);
      },
    });
  };

  const startAgain = () => {
    setValues(emptyContact);
    setErrors({});
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

  // A text over its limit says so while typing, not only when sending.
  const errorOf = (field: ContactField): string | undefined => {
    const shown =
      errors[field] ??
      (field !== 'acceptPrivacy' && checkText(field, values[field]) === 'too_long'
        ? 'too_long'
        : undefined);
    return shown && fieldErrorText(t, field, shown, values);
  };

  return (
    <div className={pageClasses}>
      <div className="mx-auto max-w-2xl">
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
            <form
              noValidate
              aria-label={t('formLabel')}
              onSubmit={onSubmit}
              className={cn(cardClasses, 'mt-6 space-y-5 p-5 sm:p-6')}
            >
              <p className="text-sm text-gray-600 dark:text-gray-300">{t('fields.requiredNote')}</p>
              {failure && <FailureAlert failure={failure} t={t} />}
              <div className="grid gap-5 sm:grid-cols-2">
                <TextInput
                  id={idOf('name')}
                  name="name"
                  label={t('fields.name')}
                  autoComplete="name"
                  required
                  value={values.name}
                  onChange={(event) => change('name', event.target.value)}
                  error={errorOf('name')}
                />
                <TextInput
                  id={idOf('company')}
                  name="company"
                  label={t('fields.company')}
                  autoComplete="organization"
                  required
                  value={values.company}
                  onChange={(event) => change('company', event.target.value)}
                  error={errorOf('company')}
                />
              </div>
              <TextInput
                id={idOf('subject')}
                name="subject"
                label={t('fields.subject')}
                autoComplete="off"
                required
                value={values.subject}
                onChange={(event) => change('subject', event.target.value)}
                error={errorOf('subject')}
              />
              <TextArea
                id={idOf('message')}
                name="message"
                label={t('fields.message')}
                rows={7}
                required
                value={values.message}
                onChange={(event) => change('message', event.target.value)}
                error={errorOf('message')}
                count={{
                  text: t('fields.characters', {
                    count: values.message.trim().length,
                    max: maxLengths.message,
                  }),
                  isOver: values.message.trim().length > maxLengths.message,
                }}
              />
              <Checkbox
                id={idOf('acceptPrivacy')}
                name="acceptPrivacy"
                required
                checked={values.acceptPrivacy}
                onChange={(event) => change('acceptPrivacy', event.target.checked)}
                label={t('fields.acceptPrivacy')}
                error={errorOf('acceptPrivacy')}
                extra={
                  // A new tab: reading the policy must not throw away the message being written.
                  <a
                    href={paths.privacy}
                    target="_blank"
                    rel="noopener"
                    className="mt-1 block w-fit rounded text-sm font-medium text-primary-ink underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
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
                {send.isPending && (
                  <span
                    aria-hidden="true"
                    className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-[spin_3s_linear_infinite]"
                  />
                )}
                {send.isPending ? t('submitting') : t('submit')}
              </button>
            </form>
          </>
        )}
      </div>
    </div>
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
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200 dark:bg-red-950/50 dark:text-red-100 dark:ring-red-900"
    >
      <AlertIcon className="mt-px size-5 shrink-0" />
      <p className="min-w-0 flex-1">{text}</p>
    </div>
  );
}
