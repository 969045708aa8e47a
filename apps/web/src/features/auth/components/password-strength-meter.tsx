import { useMemo } from 'react';
import { useTranslation } from '@/lib/use-translation';
import type { TPasswordContext } from '@portal/contract/password-rules';
import { cn } from '@/utils/cn';
import { estimatePasswordStrength, type StrengthScore } from '../password-strength';
import { useAuthTexts } from './use-auth-texts';

const levels = ['tooWeak', 'weak', 'fair', 'good', 'strong'] as const;

/** Fill of the bar's segments per score; the words say the same, so colour is never alone. */
const fills: Record<StrengthScore, string> = {
  0: 'bg-red-600 dark:bg-red-400',
  1: 'bg-red-600 dark:bg-red-400',
  2: 'bg-amber-500 dark:bg-amber-400',
  3: 'bg-lime-600 dark:bg-lime-400',
  4: 'bg-green-700 dark:bg-green-400',
};

type PasswordStrengthMeterProps = {
  password: string;
  context: TPasswordContext;
  id?: string;
};

/**
 * How strong the new password is, as the user types: a bar of four segments and, in words, the
 * level and the rule it breaks (if any). The words are a polite live region, so a screen reader
 * hears the level when it changes, not every keystroke.
 */
export function PasswordStrengthMeter({ password, context, id }: PasswordStrengthMeterProps) {
  const { t } = useTranslation('auth');
  const texts = useAuthTexts();
  const { score, problems } = useMemo(
    () => estimatePasswordStrength(password, context),
    [password, context],
  );
  const empty = password.length === 0;
  const filled = empty ? 0 : Math.max(score, 1);
  return (
    <div className="mt-2" data-testid="password-strength" data-score={empty ? '' : score}>
      <div aria-hidden="true" className="flex gap-1">
        {[1, 2, 3, 4].map((segment) => (
          <span
            key={segment}
            className={cn(
              'h-1.5 flex-1 rounded-full transition-colors',
              segment <= filled ? fills[score] : 'bg-gray-200 dark:bg-gray-700',
            )}
          />
        ))}
      </div>
      <p
        id={id}
        aria-live="polite"
        className="mt-1.5 min-h-5 text-sm text-gray-700 dark:text-gray-200"
      >
        {!empty && (
          <>
            {t('reset.strength.label')}:{' '}
            <strong className="font-semibold">{t(`reset.strength.${levels[score]}`)}</strong>
            {problems[0] && <span>. {texts.field(problems[0])}</span>}
          </>
        )}
      </p>
    </div>
  );
}
