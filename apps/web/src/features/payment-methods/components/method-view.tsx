import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { AlertIcon, SearchIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, pageTitleClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api-client';
import { formatMomentDay } from '@/lib/dates';
import { cn } from '@/utils/cn';
import { usePaymentMethod } from '../api/get-payment-methods';
import { useUpdatePaymentMethod } from '../api/update-payment-method';
import { usePaymentMethodsTexts } from '../texts';
import {
  type FieldErrors,
  hasErrors,
  maxLengths,
  serverFieldErrors,
  validateAlias,
  validateHolder,
} from '../utils/field-rules';
import { methodName, type MethodKind, type PaymentMethod } from '../utils/method-display';
import { DeleteMethodDialog } from './delete-method-dialog';
import { MainMethodField } from './main-method-field';
import { MethodBadges } from './method-item';
import { PencilIcon, TrashIcon } from './method-icons';
import { Notice } from './notice';
import { useFieldErrorText } from './use-field-error-text';
import { withFlash } from './use-flash';
import { Page } from '@/components/ui/page';

/** `2026-11-21T23:30:00.000Z` -> `22/11/2026` (Madrid's day, as the server dates), spec §9. */
export function formatCreatedAt(iso: string): string | null {
  return formatMomentDay(iso);
}

/**
 * The frame of a method's view (`?id=<method id>`): loading, the not-found state (no id, an unknown
 * id, another kind's id, a deleted one), a failure with retry, or the method.
 */
export function MethodViewFrame({
  id,
  kind,
  children,
}: {
  id: string | null;
  kind: MethodKind;
  children: (method: PaymentMethod) => ReactNode;
}) {
  const t = usePaymentMethodsTexts();
  const query = usePaymentMethod(id ?? '');
  if (!id) return <MethodNotFound />;
  if (query.isPending) {
    return (
      <Page width="form" role="status" aria-label={t('common.loading')}>
        <Skeleton className="h-9 w-56" />
        <Skeleton className="mt-3 h-5 w-28 rounded-full" />
        <Skeleton className="mt-6 h-64 rounded-2xl" />
      </Page>
    );
  }
  if (query.isError) {
    return (
      <Page width="message">
        <div
          role="alert"
          className={cn(cardClasses, 'flex flex-col items-center gap-3 p-8 text-center')}
        >
          <AlertIcon className="size-8 text-red-700 dark:text-red-300" />
          <p className="font-medium text-gray-900 dark:text-gray-100">{t('list.loadError')}</p>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        </div>
      </Page>
    );
  }
  if (!query.data || query.data.kind !== kind) return <MethodNotFound />;
  return <>{children(query.data)}</>;
}

function MethodNotFound() {
  const t = usePaymentMethodsTexts();
  return (
    <Page width="message">
      <div className={cn(cardClasses, 'flex flex-col items-center p-8 text-center')}>
        <span className="mb-5 grid size-16 place-items-center rounded-full bg-primary-100 text-primary-900 dark:bg-gray-700 dark:text-primary-ink">
          <SearchIcon className="size-8" />
        </span>
        <h1 className="text-xl font-bold text-gray-900 dark:text-gray-50">{t('notFound.title')}</h1>
        <p className="mt-2 text-gray-700 dark:text-gray-300">{t('notFound.text')}</p>
        <Link to={paths.paymentMethods} className={buttonClasses('primary', 'mt-6')}>
          {t('common.backToList')}
        </Link>
      </div>
    </Page>
  );
}

/** The title of a view: the method's name and its badges. */
export function MethodHeading({ method }: { method: PaymentMethod }) {
  const t = usePaymentMethodsTexts();
  return (
    <div>
      <p className="text-sm font-medium text-gray-700 dark:text-gray-300">
        {t(`kinds.${method.kind}`)}
      </p>
      <h1 className={cn(pageTitleClasses, 'break-words')}>{methodName(method, t)}</h1>
      <div className="mt-2">
        <MethodBadges method={method} />
      </div>
    </div>
  );
}

export type DetailRow = { label: string; value: ReactNode; mono?: boolean };

type EditableField = 'alias' | 'holder';

/**
 * Spec §4 "Edit screens": the method's data, and an edit mode for what the API lets the customer
 * change (the alias; a bank account's holder too). Cancel restores the values; saving goes back to
 * the view and says so.
 */
export function MethodDetails({
  method,
  title,
  rows,
  editable,
}: {
  method: PaymentMethod;
  title: string;
  rows: DetailRow[];
  editable: readonly EditableField[];
}) {
  const t = usePaymentMethodsTexts();
  const titleId = useId();
  const [isEditing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    // Leaving the edit mode gives the focus back to its button.
    if (wasEditing.current && !isEditing) editButtonRef.current?.focus();
    wasEditing.current = isEditing;
  }, [isEditing]);

  return (
    <section aria-labelledby={titleId} className={cn(cardClasses, 'p-4 sm:p-6')}>
      <div className="flex items-center justify-between gap-3">
        <h2 id={titleId} className={sectionTitleClasses}>
          {title}
        </h2>
        {!isEditing && (
          <button
            type="button"
            ref={editButtonRef}
            className={buttonClasses('secondary')}
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
          >
            <PencilIcon className="size-5" />
            {t('common.edit')}
          </button>
        )}
      </div>
      {isEditing ? (
        <EditForm
          method={method}
          fields={editable}
          onDone={(didSave) => {
            setSaved(didSave);
            setEditing(false);
          }}
        />
      ) : (
        <dl className="mt-3 divide-y divide-gray-200 text-sm dark:divide-gray-700">
          {rows.map((row) => (
            <div
              key={row.label}
              className="flex flex-col gap-0.5 py-2.5 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4"
            >
              <dt className="shrink-0 text-gray-700 dark:text-gray-300">{row.label}</dt>
              <dd
                className={cn(
                  'min-w-0 font-semibold break-words text-gray-900 sm:text-right dark:text-gray-50',
                  row.mono && 'font-mono tracking-tight',
                )}
              >
                {row.value}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <div role="status" className="empty:hidden [&:not(:empty)]:mt-3">
        {saved && !isEditing && <Notice tone="success">{t('common.changesSaved')}</Notice>}
      </div>
    </section>
  );
}

function EditForm({
  method,
  fields,
  onDone,
}: {
  method: PaymentMethod;
  fields: readonly EditableField[];
  onDone: (saved: boolean) => void;
}) {
  const t = usePaymentMethodsTexts();
  const errorText = useFieldErrorText();
  const update = useUpdatePaymentMethod(method.id);
  const [values, setValues] = useState({ alias: method.alias, holder: method.holder });
  const [errors, setErrors] = useState<FieldErrors<EditableField>>({});
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => firstRef.current?.focus(), []);

  const validate = (): FieldErrors<EditableField> => {
    const found: FieldErrors<EditableField> = {};
    const alias = validateAlias(values.alias);
    if (alias) found.alias = alias;
    if (fields.includes('holder')) {
      const holder = validateHolder(values.holder);
      if (holder) found.holder = holder;
    }
    return found;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const found = validate();
    setErrors(found);
    if (hasErrors(found)) return;
    update.mutate(
      {
        alias: values.alias.trim(),
        ...(fields.includes('holder') ? { holder: values.holder.trim() } : {}),
      },
      {
        onSuccess: () => onDone(true),
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) {
            setErrors(serverFieldErrors(error.errors, fields));
          }
        },
      },
    );
  };

  const change = (field: EditableField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <form noValidate onSubmit={submit} aria-busy={update.isPending} className="mt-4 space-y-4">
      <TextField
        ref={firstRef}
        label={t('fields.alias')}
        value={values.alias}
        onChange={(event) => change('alias', event.target.value)}
        error={errorText(errors.alias, 'alias')}
        maxLength={maxLengths.alias}
        autoComplete="off"
        disabled={update.isPending}
      />
      {fields.includes('holder') && (
        <TextField
          label={t('fields.holder')}
          value={values.holder}
          onChange={(event) => change('holder', event.target.value)}
          error={errorText(errors.holder, 'holder')}
          maxLength={maxLengths.holder}
          autoComplete="name"
          required
          disabled={update.isPending}
        />
      )}
      {update.isError && !hasErrors(errors) && (
        <Notice tone="error">
          {update.error instanceof ApiError && update.error.status === 0
            ? t('common.network')
            : t('common.saveError')}
        </Notice>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => onDone(false)} disabled={update.isPending}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t('common.saving') : t('common.saveChanges')}
        </Button>
      </div>
    </form>
  );
}

/** The main-method checkbox and the delete button of a view; deleting goes back to the list. */
export function MethodActions({ method }: { method: PaymentMethod }) {
  const t = usePaymentMethodsTexts();
  const navigate = useNavigate();
  const [isDeleting, setDeleting] = useState(false);
  const name = methodName(method, t);
  return (
    <>
      <section className={cn(cardClasses, 'p-4 sm:p-6')} aria-label={t('mainMethod.checkbox')}>
        <MainMethodField method={method} />
      </section>
      {/* The main method cannot be deleted (the API refuses): not offered. A quiet button: deleting
          is not what this screen is for (review #20). */}
      {!method.is_main && (
        <div>
          <button
            type="button"
            onClick={() => setDeleting(true)}
            className={buttonClasses(
              'secondary',
              'text-red-700 hover:text-red-800 dark:text-red-300 dark:hover:text-red-200',
            )}
          >
            <TrashIcon className="size-5" />
            {t('common.delete')}
          </button>
          <DeleteMethodDialog
            method={method}
            name={name}
            open={isDeleting}
            onClose={() => setDeleting(false)}
            onDeleted={() =>
              navigate(paths.paymentMethods, {
                replace: true,
                state: withFlash({ kind: 'deleted', name }),
              })
            }
          />
        </div>
      )}
    </>
  );
}
