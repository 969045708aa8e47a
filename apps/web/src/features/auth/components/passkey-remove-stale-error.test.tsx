import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { renderWithRouter } from '@/testing/render-app';
import { PasskeysScreen } from './passkeys-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const passkey = (id: string, name: string) => ({
  id,
  name,
  backed_up: false,
  created_at: '2026-11-20T08:00:00.000Z',
  last_used_at: null,
});

afterEach(() => vi.unstubAllGlobals());

describe('removing a passkey', () => {
  it('does not greet the next removal with the failure of an earlier one', async () => {
    setAuth({ accessToken: 'tok', user: { id: 'u1', code: 'C1', name: 'Ana', email: 'a@x.test' } });
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async (input) => {
        const path = new URL(String(input), 'http://x').pathname.replace(/^\/[^/]+\/api\/1\.0/, '');
        if (path.startsWith('/user/profile/')) return json(200, { has_password: true });
        if (path === '/passkeys')
          return json(200, {
            passkeys: [passkey('p1', 'Chrome en Mac'), passkey('p2', 'Safari en iPhone')],
          });
        // The first removal fails (a server restarting, say).
        if (path === '/passkeys/p1/delete') return json(503, { code: 'unavailable', message: 'x' });
        return json(404, { code: 'not_found', message: 'Not found' });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await renderWithRouter(
      <QueryClientProvider client={client}>
        <PasskeysScreen />
      </QueryClientProvider>,
      { path: '/passkeys' },
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Quitar Chrome en Mac' }));
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Quitar' }));
    expect(
      await within(dialog).findByText('No se ha podido hacer. Inténtalo de nuevo.'),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));

    // Another passkey: nothing has been tried on it yet.
    await user.click(screen.getByRole('button', { name: 'Quitar Safari en iPhone' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/¿Quitar «Safari en iPhone»\?/)).toBeTruthy();
    expect(within(dialog).queryByText('No se ha podido hacer. Inténtalo de nuevo.')).toBeNull();
  });
});
