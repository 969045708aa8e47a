import { useTranslation } from '@/lib/use-translation';
import { AlertIcon } from '@/components/ui/icons';
import { useVisualConfig } from '@/lib/visual-config';

/**
 * On every screen of a tenant in test mode (/login included, which the server prerenders): its
 * payments are not real. A plain sentence at the top of the page header, read first by a screen
 * reader; not a live region, since it never changes while the page is open.
 */
export function TestModeBanner() {
  const { t } = useTranslation();
  const { testMode } = useVisualConfig();
  if (!testMode) return null;
  return (
    <p className="flex items-center justify-center gap-1.5 bg-amber-300 px-4 py-1 text-center text-sm font-semibold text-gray-950 dark:bg-amber-400">
      <AlertIcon className="size-4 shrink-0" />
      {t('app.testModeBanner')}
    </p>
  );
}
