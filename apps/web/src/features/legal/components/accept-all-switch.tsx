import { useTranslation } from '@/lib/use-translation';
import { Switch } from '@/components/ui/switch';

/**
 * Spec §2 "Legal pages": the cookie page's accept-all switch, fixed on and disabled. Only necessary
 * technical cookies are used, which need no consent (LSSI art. 22.2), so there is nothing to turn
 * off; the switch says so rather than pretending to offer a choice.
 */
export function AcceptAllSwitch() {
  const { t } = useTranslation('legal');
  return (
    <div className="rounded-2xl bg-white p-2 ring-1 ring-gray-200 dark:bg-gray-800 dark:ring-gray-700">
      <Switch
        checked
        disabled
        onChange={() => undefined}
        className="disabled:opacity-100"
        label={
          <span className="text-base font-semibold text-gray-900 dark:text-gray-50">
            {t('cookies.consent.acceptAll')}
          </span>
        }
        description={t('cookies.consent.alwaysOn')}
      />
    </div>
  );
}
