import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language } from '@/lib/i18n';
import { defaultVisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { renderWithRouter } from '@/testing/render-app';
import { MainLayout } from './main-layout';

function renderLayout(testMode: boolean, language: Language = 'es') {
  return renderWithRouter(
    <VisualConfigContext value={{ ...defaultVisualConfig, testMode }}>
      <MainLayout variant="public">content</MainLayout>
    </VisualConfigContext>,
    { language },
  );
}

describe('the test-mode banner', () => {
  it.each([
    ['es', 'Modo de pruebas: los pagos no son reales'],
    ['ca', 'Mode de proves: els pagaments no són reals'],
    ['en', 'Test mode: payments are not real'],
    ['eu', 'Proba modua: ordainketak ez dira benetakoak'],
  ] as const)(
    'says in %s, at the top of the page header, that payments are not real',
    async (language, text) => {
      await renderLayout(true, language);
      const banner = within(screen.getByRole('banner')).getByText(text);
      // The first thing of the header, before the company and the menu button.
      expect(screen.getByRole('banner').firstElementChild).toBe(banner);
    },
  );

  it('is not there when the tenant is live', async () => {
    await renderLayout(false);
    expect(screen.queryByText(/Modo de pruebas/)).toBeNull();
  });
});
