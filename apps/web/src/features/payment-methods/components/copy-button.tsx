import { useEffect, useState } from 'react';
import { usePaymentMethodsTexts } from '../texts';
import { CheckIcon, CopyIcon } from './method-icons';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * Copies `value` to the clipboard and says so beside the button ("Copiado", read out politely).
 * Without a clipboard (an old browser, a page not served over https, a refused permission) it says
 * how to copy by hand and selects the shown text for it (`onFailed`).
 */
export function CopyButton({
  value,
  field,
  onFailed,
}: {
  value: string;
  field: string;
  onFailed?: () => void;
}) {
  const t = usePaymentMethodsTexts();
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 4000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      if (typeof navigator.clipboard?.writeText !== 'function') throw new Error('No clipboard');
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
      onFailed?.();
    }
  };

  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={t('bankTransfer.copyLabel', { field })}
        className="inline-flex min-h-11 items-center gap-1.5 rounded-xl px-3 text-sm font-semibold text-primary-ink ring-1 ring-gray-300 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink dark:ring-gray-600 dark:hover:bg-gray-700"
      >
        <CopyIcon className="size-4" />
        {t('bankTransfer.copy')}
      </button>
      <span
        role="status"
        className="text-xs font-medium text-green-800 empty:hidden dark:text-green-300"
      >
        {state === 'copied' && (
          <span className="inline-flex items-center gap-1">
            <CheckIcon className="size-4" />
            {t('bankTransfer.copied')}
            <span className="sr-only">: {field}</span>
          </span>
        )}
      </span>
      {state === 'failed' && (
        <p role="alert" className="max-w-56 text-end text-xs text-red-700 dark:text-red-300">
          {t('bankTransfer.copyFailed')}
        </p>
      )}
    </div>
  );
}
