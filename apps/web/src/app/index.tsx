import { RouterProvider } from 'react-router';
import type { VisualConfig } from '@/lib/visual-config';
import { AppProvider } from './provider';
import type { createAppRouter } from './router';

type AppProps = {
  router: ReturnType<typeof createAppRouter>;
  visualConfig: VisualConfig | Promise<VisualConfig>;
};

export function App({ router, visualConfig }: AppProps) {
  return (
    <AppProvider visualConfig={visualConfig}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
