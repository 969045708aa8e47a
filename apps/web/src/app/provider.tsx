import { type ReactNode, Suspense, use } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { type VisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { AppSpinner } from './app-spinner';

type AppProviderProps = {
  /** Already resolved when the app takes over a prerendered page: nothing may suspend then. */
  visualConfig: VisualConfig | Promise<VisualConfig>;
  children: ReactNode;
};

/** Holds the app behind a full-screen spinner until branding and translations are ready. */
export function AppProvider({ visualConfig, children }: AppProviderProps) {
  return (
    <Suspense fallback={<AppSpinner />}>
      <Ready visualConfig={visualConfig}>{children}</Ready>
    </Suspense>
  );
}

function Ready({ visualConfig, children }: AppProviderProps) {
  const config = visualConfig instanceof Promise ? use(visualConfig) : visualConfig;
  // Suspends until the current language's strings are loaded.
  useTranslation();
  return <VisualConfigContext value={config}>{children}</VisualConfigContext>;
}
