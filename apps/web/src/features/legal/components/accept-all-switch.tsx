import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Spec §2 "Legal pages": the cookie page's accept-all switch, fixed on and disabled. Only necessary
 * technical cookies are used, which need no consent (LSSI art. 22.2), so there is nothing to turn
 * off; the switch says so rather than pretending to offer a choice.
 */
export function AcceptAllSwitch() {
  const { t } = useTranslation('legal');
  const labelId = useId();
  const descriptionId = useId();
  return (
    <div className="flex items-center gap-4 rounded-2xl bg-white p-4 ring-1 ring-gray-200 dark:bg-gray-800 dark:ring-gray-700">
      <div className="min-w-0 flex-1">
        <p id={labelId} className="font-semibold text-gray-900 dark:text-gray-50">
          {t('cookies.consent.acceptAll')}
        </p>
        <p id={descriptionId} className="mt-0.5 text-sm leading-6 text-gray-600 dark:text-gray-300">
          {t('cookies.consent.alwaysOn')}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked="true"
        disabled
        aria-labelledby={labelId}
        aria-describedby={descriptionId}
        className="relative inline-flex h-7 w-12 shrink-0 cursor-not-allowed items-center rounded-full border-2 border-primary-fill bg-primary-fill opacity-70"
      >
        <span
          aria-hidden="true"
          className="inline-block size-5 translate-x-5 rounded-full bg-on-primary shadow"
        />
      </button>
    </div>
  );
}
