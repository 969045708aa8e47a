import { stepUpMinutes } from '@portal/contract/auth';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useSignInAgain } from '@/lib/auth';
import { useTranslation } from '@/lib/use-translation';
import { FormAlert } from './form-fields';

/**
 * A change that adds a way into the account, refused to a customer without a password whose
 * sign-in is too old to prove it is them (403 `reauthentication_required`): says so, and signs out
 * to the sign-in screen, which brings them back here afterwards.
 */
export function SignInAgain() {
  const { t } = useTranslation('sessions');
  const signInAgain = useSignInAgain();
  const [busy, setBusy] = useState(false);
  return (
    <FormAlert>
      <p>{t('stepUp.signInAgain', { minutes: stepUpMinutes })}</p>
      <Button
        variant="secondary"
        className="mt-3 w-full sm:w-auto"
        disabled={busy}
        aria-busy={busy}
        onClick={() => {
          setBusy(true);
          void signInAgain();
        }}
      >
        {t('stepUp.signInAgainButton')}
      </Button>
    </FormAlert>
  );
}
