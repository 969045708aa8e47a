import { passkeyNameMaxLength, ZPasskeyName } from '@portal/contract/passkeys';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ListState } from '@/components/ui/list-state';
import { Page } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/utils/cn';
import type { Passkey } from '../api/passkeys';
import { isWrongCurrentPassword, needsSignInAgain } from '../error-messages';
import { formatMoment } from '@/lib/dates';
import { KeyIcon } from './device-icons';
import { FormAlert, TextField } from './form-fields';
import { SignInAgain } from './sign-in-again';
import { StepUpForm } from './step-up-form';
import { useHasPassword } from './use-without-password';

const passkeysKey = ['passkeys'] as const;
/** The WebAuthn code, loaded with the first action that needs it (decision 029). */
const webauthn = () => import('../api/passkeys');

type Notice = { tone: 'ok' | 'error'; text: string } | null;

/** A refusal of the proof that it is the owner: the password dialog says it (StepUpForm). */
const isStepUpRefusal = (error: unknown): boolean =>
  isWrongCurrentPassword(error) ||
  needsSignInAgain(error) ||
  (error instanceof ApiError && error.status === 429);

/**
 * "Your passkeys" (issue 24): add one made by this device (its fingerprint, face or PIN), see each
 * with when it was made and last used and whether it syncs to the customer's other devices, rename
 * it, remove it (asked first). What happened is said in a live region. Adding one asks for the
 * current password first (a dialog); a customer without one goes straight to the device, and is
 * sent to sign in again if their sign-in is too old to prove it is them.
 */
export function PasskeysScreen() {
  const { t } = useTranslation('sessions');
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: passkeysKey,
    queryFn: async () => (await webauthn()).listPasskeys(),
  });
  const [notice, setNotice] = useState<Notice>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [askingPassword, setAskingPassword] = useState(false);
  const [signInAgain, setSignInAgain] = useState(false);
  const hasPassword = useHasPassword();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: passkeysKey });
  /** A passkey removed (here or elsewhere) leaves the list at once; the list is read again. */
  const dropped = (passkey: Passkey) => {
    queryClient.setQueryData<Passkey[]>(passkeysKey, (list) =>
      list?.filter((p) => p.id !== passkey.id),
    );
    refresh();
  };

  const added = (passkey: Passkey) => {
    setNotice({ tone: 'ok', text: t('passkeys.added', { name: passkey.name }) });
    refresh();
  };
  const failed = (error: unknown) => {
    if (needsSignInAgain(error)) {
      setSignInAgain(true);
      return;
    }
    const name = error instanceof Error ? error.name : '';
    const text =
      name === 'NotAllowedError' || name === 'AbortError'
        ? t('passkeys.addCancelled')
        : name === 'NotSupportedError' || !window.PublicKeyCredential
          ? t('passkeys.unsupported')
          : t('passkeys.addError');
    setNotice({ tone: 'error', text });
  };

  // A customer without a password: no dialog, the device's own prompt at once.
  const add = useMutation({
    mutationFn: async () => (await webauthn()).addPasskey(''),
    onSuccess: added,
    onError: failed,
  });

  // A customer with one: the dialog's password, then the device. A refusal of the password stays
  // in the dialog; anything after it (the device's prompt cancelled) closes it and is said here.
  const addWithPassword = async (password: string) => {
    let passkey: Passkey;
    try {
      passkey = await (await webauthn()).addPasskey(password);
    } catch (error) {
      if (isStepUpRefusal(error)) throw error;
      setAskingPassword(false);
      failed(error);
      return;
    }
    setAskingPassword(false);
    added(passkey);
  };
  const remove = useMutation({
    mutationFn: async (passkey: Passkey) => (await webauthn()).removePasskey(passkey.id),
    onSuccess: (_, passkey) => {
      setRemoving(null);
      setNotice({ tone: 'ok', text: t('passkeys.removed', { name: passkey.name }) });
      headingRef.current?.focus();
      dropped(passkey);
    },
  });

  const passkeys = query.data ?? [];
  return (
    <Page width="form">
      <h1 ref={headingRef} tabIndex={-1} className={cn(pageTitleClasses, 'outline-none')}>
        {t('passkeys.title')}
      </h1>
      <p className="mt-2 text-gray-700 dark:text-gray-300">{t('passkeys.intro')}</p>
      <div role="status" aria-live="polite" className="mt-4 empty:hidden">
        {notice?.tone === 'ok' && (
          <p className="rounded-xl border border-green-700/30 bg-green-50 p-3 text-sm text-green-900 dark:border-green-400/30 dark:bg-green-950 dark:text-green-100">
            {notice.text}
          </p>
        )}
      </div>
      {notice?.tone === 'error' && (
        <div className="mt-4">
          <FormAlert>
            <p>{notice.text}</p>
          </FormAlert>
        </div>
      )}
      {signInAgain && (
        <div className="mt-4">
          <SignInAgain />
        </div>
      )}
      <Button
        className="mt-6 w-full sm:w-auto"
        // Until the profile says whether there is a password to ask for.
        disabled={add.isPending || hasPassword === undefined}
        aria-busy={add.isPending}
        onClick={() => {
          setNotice(null);
          setSignInAgain(false);
          if (hasPassword === false) add.mutate();
          else setAskingPassword(true);
        }}
      >
        {add.isPending ? t('passkeys.adding') : t('passkeys.add')}
      </Button>
      <div className="mt-6">
        <ListState
          query={query}
          isEmpty={passkeys.length === 0}
          skeleton={<PasskeysSkeleton />}
          empty={{ icon: KeyIcon, title: t('passkeys.emptyTitle'), hint: t('passkeys.emptyHint') }}
          texts={{
            loading: t('passkeys.loading'),
            loadError: t('passkeys.loadError'),
            retry: t('passkeys.retry'),
          }}
        >
          <ul className="space-y-3">
            {passkeys.map((passkey) => (
              <PasskeyRow
                key={passkey.id}
                passkey={passkey}
                onRenamed={() => {
                  setNotice({ tone: 'ok', text: t('passkeys.renamed') });
                  refresh();
                }}
                onGone={() => {
                  // Removed from another device or tab while the form was open: nothing to retry.
                  setNotice({ tone: 'ok', text: t('passkeys.gone', { name: passkey.name }) });
                  headingRef.current?.focus();
                  dropped(passkey);
                }}
                onRemove={() => {
                  // A new question: an earlier removal's failure is not this one's (session 39).
                  remove.reset();
                  setRemoving(passkey);
                }}
              />
            ))}
          </ul>
        </ListState>
      </div>
      <Dialog
        open={askingPassword}
        onClose={() => setAskingPassword(false)}
        title={t('stepUp.title')}
      >
        <StepUpForm
          intro={t('stepUp.passkeyIntro')}
          busyLabel={t('passkeys.adding')}
          failedText={t('passkeys.addError')}
          onConfirm={addWithPassword}
          onCancel={() => setAskingPassword(false)}
        />
      </Dialog>
      <Dialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={t('passkeys.remove')}
      >
        <p className="text-sm text-gray-700 dark:text-gray-300">
          {t('passkeys.removeConfirm', { name: removing?.name ?? '' })}
        </p>
        {remove.isError && (
          <div className="mt-4">
            <FormAlert>
              <p>{t('passkeys.actionError')}</p>
            </FormAlert>
          </div>
        )}
        <div className="mt-5 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setRemoving(null)}>
            {t('passkeys.cancel')}
          </Button>
          <Button
            className="bg-red-700 text-white dark:bg-red-800"
            disabled={remove.isPending}
            onClick={() => removing && remove.mutate(removing)}
          >
            {t('passkeys.remove')}
          </Button>
        </div>
      </Dialog>
    </Page>
  );
}

function PasskeyRow({
  passkey,
  onRenamed,
  onGone,
  onRemove,
}: {
  passkey: Passkey;
  onRenamed: () => void;
  onGone: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('sessions');
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [failed, setFailed] = useState(false);
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const nameRef = useRef<HTMLInputElement>(null);
  const showNameError = (code: string) => {
    setNameError(nameErrorText(code, t));
    nameRef.current?.focus();
  };
  const rename = useMutation({
    mutationFn: async (value: string) => (await webauthn()).renamePasskey(passkey.id, value),
    onSuccess: (result) => {
      setEditing(false);
      if (result === 'gone') onGone();
      else onRenamed();
    },
    onError: (error) => {
      const code =
        error instanceof ApiError && error.status === 422 ? error.errors?.name?.[0] : undefined;
      if (code) showNameError(code);
      else setFailed(true);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailed(false);
    // The contract's schema, the one the server checks with: a name of only spaces is no name.
    const checked = ZPasskeyName.safeParse(name);
    if (!checked.success) {
      showNameError(checked.error.issues[0]?.message ?? 'required');
      return;
    }
    setNameError(undefined);
    rename.mutate(checked.data);
  };
  return (
    <li aria-labelledby={titleId} className={cn(cardClasses, 'p-4')}>
      <div className="flex flex-wrap items-start gap-4">
        <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-200">
          <KeyIcon />
        </span>
        <div className="min-w-0 flex-1">
          <p id={titleId} className="font-semibold break-words text-gray-900 dark:text-gray-50">
            {passkey.name}
          </p>
          <div className="mt-1 space-y-0.5 text-sm text-gray-700 dark:text-gray-300">
            <p>{t('passkeys.created', { when: formatMoment(passkey.created_at) })}</p>
            <p>
              {passkey.last_used_at
                ? t('passkeys.lastUsed', { when: formatMoment(passkey.last_used_at) })
                : t('passkeys.neverUsed')}
            </p>
            {passkey.backed_up && <p>{t('passkeys.synced')}</p>}
          </div>
        </div>
        {!editing && (
          <div className="flex w-full gap-2 sm:w-auto">
            <Button
              variant="secondary"
              className="flex-1 whitespace-nowrap"
              aria-label={t('passkeys.renameLabel', { name: passkey.name })}
              onClick={() => {
                setName(passkey.name);
                setNameError(undefined);
                setFailed(false);
                setEditing(true);
              }}
            >
              {t('passkeys.rename')}
            </Button>
            <Button
              variant="secondary"
              className="flex-1"
              aria-label={t('passkeys.removeLabel', { name: passkey.name })}
              onClick={onRemove}
            >
              {t('passkeys.remove')}
            </Button>
          </div>
        )}
      </div>
      {editing && (
        <form noValidate onSubmit={submit} className="mt-4 space-y-3">
          {failed && (
            <FormAlert>
              <p>{t('passkeys.actionError')}</p>
            </FormAlert>
          )}
          <TextField
            ref={nameRef}
            label={t('passkeys.name')}
            value={name}
            maxLength={passkeyNameMaxLength}
            error={nameError}
            autoFocus
            onChange={(event) => {
              setName(event.target.value);
              setNameError(undefined);
            }}
            required
          />
          <div className="flex gap-2">
            <button type="submit" className={buttonClasses('primary', 'flex-1')}>
              {t('passkeys.save')}
            </button>
            <Button variant="secondary" className="flex-1" onClick={() => setEditing(false)}>
              {t('passkeys.cancel')}
            </Button>
          </div>
        </form>
      )}
    </li>
  );
}

/** The name field's error, worded from the contract's code (the browser's check or the server's). */
function nameErrorText(code: string, t: TFunction<'sessions'>): string {
  switch (code) {
    case 'too_long':
      return t('passkeys.errors.tooLong', { max: passkeyNameMaxLength });
    case 'invalid_characters':
      return t('passkeys.errors.invalidCharacters');
    default:
      return t('passkeys.errors.required');
  }
}

function PasskeysSkeleton() {
  return (
    <ul className="space-y-3" aria-hidden="true">
      {[0, 1].map((row) => (
        <li key={row} className={cn(cardClasses, 'flex items-start gap-4 p-4')}>
          <Skeleton className="size-11 rounded-xl" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-5 w-40 max-w-full" />
            <Skeleton className="h-4 w-48 max-w-full" />
          </div>
        </li>
      ))}
    </ul>
  );
}
