import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { changeLanguage, i18nReady, type Language } from '@/lib/i18n';

/** Renders a screen inside a memory router, in Spanish unless told otherwise. */
export async function renderWithRouter(
  ui: ReactNode,
  { path = '/', language = 'es' }: { path?: string; language?: Language } = {},
) {
  await i18nReady;
  await changeLanguage(language);
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  return { router, ...render(<RouterProvider router={router} />) };
}
