import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { renderWithRouter } from '@/testing/render-app';
import { DevicesScreen } from './devices-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const session = (over: Record<string, unknown>) => ({
  id: '00000000-0000-4000-8000-000000000001',
  current: false,
  method: 'password',
  browser: 'Chrome 131',
  os: 'Windows 10',
  device_type: 'desktop',
  network: '83.45.120.*',
  created_at: '2026-11-20T08:00:00.000Z',
  last_used_at: '2026-11-26T06:05:00.000Z',
  ...over,
});
const here = session({ id: '00000000-0000-4000-8000-00000000000a', current: true });
const phone = session({
  id: '00000000-0000-4000-8000-00000000000b',
  browser: 'Safari 17',
  os: 'iOS 17',
  device_type: 'mobile',
  method: 'link',
});
const unknown = session({
  id: '00000000-0000-4000-8000-00000000000c',
  browser: '',
  os: '',
  device_type: '',
  network: '',
});

/** Answers each call in turn by its path: `/sessions` lists, the ends answer what is given. */
async function renderDevices(answers: Record<string, () => Response>) {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'C1', name: 'Ana', email: 'ana@club.test' },
  });
  const fetchMock = vi.fn<typeof fetch>(async (input) => {
    const path = new URL(String(input), 'http://x').pathname.replace(/^\/[^/]+\/api\/1\.0/, '');
    const key = Object.keys(answers).find((k) => path === k || path.endsWith(k));
    const answerOf = key ? answers[key] : undefined;
    return answerOf ? answerOf() : json(404, { code: 'not_found', message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await renderWithRouter(
    <QueryClientProvider client={client}>
      <DevicesScreen />
    </QueryClientProvider>,
    { path: '/devices' },
  );
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('"Your devices" (issue 24)', () => {
  it('lists this device first and marked, each with what the server knows of it', async () => {
    await renderDevices({ '/sessions': () => json(200, { sessions: [phone, here, unknown] }) });
    const [first, second, third] = await screen.findAllByRole('listitem');
    if (!first || !second || !third) throw new Error('three rows expected');
    expect(first.textContent).toContain('Chrome 131 · Windows 10');
    expect(within(first).getByText('Este dispositivo')).toBeTruthy();
    expect(within(first).queryByRole('button')).toBeNull();
    expect(second.textContent).toContain('Con un enlace por correo');
    expect(second.textContent).toContain('Último uso: 26/11/2026 07:05 h');
    expect(second.textContent).toContain('Red 83.45.120.*');
    expect(third.textContent).toContain('Navegador desconocido');
    expect(third.textContent).not.toContain('Red');
  });

  it('ends one session, says so and drops it from the list', async () => {
    let ended = false;
    const fetchMock = await renderDevices({
      '/sessions': () => json(200, { sessions: ended ? [here] : [here, phone] }),
      [`/sessions/${phone.id}/end`]: () => {
        ended = true;
        return json(200, { ended: 1 });
      },
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Cerrar la sesión de Safari 17 · iOS 17' }),
    );
    expect((await screen.findByRole('status')).textContent).toContain(
      'Sesión cerrada en Safari 17 · iOS 17',
    );
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(
      screen.getByText('No tienes la sesión iniciada en ningún otro dispositivo.'),
    ).toBeTruthy();
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/end'));
    expect(call?.[1]?.method).toBe('POST');
    expect(new Headers(call?.[1]?.headers).get('Authorization')).toBe('Bearer tok');
  });

  it('ends every other session with one button', async () => {
    await renderDevices({
      '/sessions': () => json(200, { sessions: [here, phone, unknown] }),
      '/sessions/end-others': () => json(200, { ended: 2 }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cerrar las demás sesiones' }));
    expect((await screen.findByRole('status')).textContent).toContain('Se han cerrado 2 sesiones.');
  });

  it.each([
    [503, 'service_unavailable'],
    // Refused for another reason than "already ended" (a 404): still a failure.
    [403, 'forbidden'],
  ])('keeps the list and says so when ending fails (%i)', async (status, code) => {
    await renderDevices({
      '/sessions': () => json(200, { sessions: [here, phone] }),
      [`/sessions/${phone.id}/end`]: () => json(status, { code, message: '' }),
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Cerrar la sesión de Safari 17 · iOS 17' }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No se ha podido cerrar la sesión. Inténtalo de nuevo.',
    );
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('status')?.textContent ?? '').toBe('');
  });

  it('drops a session the server says was already ended, with no error', async () => {
    // Ended meanwhile (from that device, another tab, the "was this you?" link): the server's list
    // no longer holds it, and ending it again answers the 404 of every unknown session.
    let listed = 0;
    const fetchMock = await renderDevices({
      '/sessions': () => json(200, { sessions: listed++ === 0 ? [here, phone] : [here] }),
      [`/sessions/${phone.id}/end`]: () => json(404, { code: 'not_found', message: 'No such' }),
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Cerrar la sesión de Safari 17 · iOS 17' }),
    );
    expect((await screen.findByRole('status')).textContent).toContain(
      'Sesión cerrada en Safari 17 · iOS 17',
    );
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('No se ha podido cerrar la sesión. Inténtalo de nuevo.')).toBeNull();
    // The list was read again, so it shows what the server holds.
    expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/sessions'))).toHaveLength(
      2,
    );
  });

  it('offers a retry when the list cannot be loaded', async () => {
    await renderDevices({ '/sessions': () => json(500, { code: 'internal_error', message: '' }) });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'No se han podido cargar tus dispositivos',
    );
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });
});
