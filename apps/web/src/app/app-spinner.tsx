import { useTranslation } from '@/lib/use-translation';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { defaultLanguage } from '@/lib/i18n';

/**
 * Shown while branding, translations or the first screen load. It must not suspend itself, so
 * until the chosen language is loaded it speaks the bundled default.
 */
export function AppSpinner() {
  const { t, i18n, ready } = useTranslation(undefined, { useSuspense: false });
  return (
    <FullScreenSpinner
      label={ready ? t('app.loading') : i18n.t('app.loading', { lng: defaultLanguage })}
    />
  );
}
