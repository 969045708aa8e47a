import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { queryClient } from '@/lib/query-client';
import { defaultVisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { renderWithRouter } from '@/testing/render-app';
import { TwoFactorScreen } from './two-factor-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

/** The server's second factor: off until the first code is confirmed. */
function serveSecondFactor() {
  let enabled = false;
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const path = new URL(String(input), 'http://x').pathname.replace(/^\/[^/]+\/api\/1\.0/, '');
      if (path.startsWith('/user/profile/')) return json(200, { has_password: false });
      if (path === '/second-factor')
        return json(200, { enabled, recovery_codes_left: enabled ? 10 : 0 });
      if (path === '/second-factor/setup')
        return json(200, {
          secret: 'JBSWY3DPEHPK3PXP',
          uri: 'otpauth://totp/Portal:ana?secret=JBSWY3DPEHPK3PXP',
        });
      if (path === '/second-factor/confirm') {
        enabled = true;
        return json(200, {
          recovery_codes: Array.from({ length: 10 }, (_, i) => `ABCDE-${String(i).repeat(5)}`),
        });
      }
      return json(404, { code: 'not_found', message: 'Not found' });
    }),
  );
}

/** The screen inside the app's own cache (lists fresh for a minute), as the router mounts it. */
const screenInApp = () =>
  renderWithRouter(
    <VisualConfigContext value={{ ...defaultVisualConfig, secondFactor: 'optional' }}>
      <QueryClientProvider client={queryClient}>
        <TwoFactorScreen />
      </QueryClientProvider>
    </VisualConfigContext>,
    { path: '/two-factor' },
  );

describe('two-step verification, once turned on', () => {
  it('is shown on when the customer comes back without pressing "Ya los he guardado"', async () => {
    setAuth({ accessToken: 'tok', user: { id: 'u1', code: 'C1', name: 'Ana', email: 'a@x.test' } });
    serveSecondFactor();
    const first = await screenInApp();
    const user = userEvent.setup();
    const enable = await screen.findByRole('button', { name: 'Activar' });
    await waitFor(() => expect(enable.hasAttribute('disabled')).toBe(false));
    await user.click(enable);
    await user.type(await screen.findByLabelText('Código de verificación'), '123456');
    await user.click(screen.getByRole('button', { name: 'Activar la verificación' }));
    expect(
      await screen.findByRole('heading', { name: 'Guarda tus códigos de recuperación' }),
    ).toBeTruthy();

    // The customer copies the codes, then goes elsewhere in the app (the side menu), and back.
    first.unmount();
    await screenInApp();
    await screen.findByRole('heading', { name: 'Verificación en dos pasos' });
    // Today the cache still holds the "off" read before the enrolment (fresh for a minute): the
    // screen says "Desactivada" and offers "Activar", which the server then refuses (409).
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('Activada'),
    );
    expect(screen.queryByRole('button', { name: 'Activar' })).toBeNull();
  });
});
