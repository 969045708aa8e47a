import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAuth, setAuth } from '@/lib/auth-store';
import { readStorage, storageKeys } from '@/lib/storage';
import { renderWithRouter } from '@/testing/render-app';
import { PasskeysScreen } from './passkeys-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const wrongPassword = () =>
  json(422, {
    message: 'Invalid',
    code: 'validation_failed',
    errors: { current_password: ['wrong_password'] },
  });
const reauthenticationRequired = () =>
  json(403, { message: 'Sign in again', code: 'reauthentication_required' });

/** What the server's WebAuthn library hands the browser (only what the browser code reads). */
const options = {
  challenge: 'AQID',
  rp: { name: 'Portal', id: 'localhost' },
  user: { id: 'AQID', name: 'ana@club.test', displayName: 'Ana' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
};
const passkey = {
  id: 'p1',
  name: 'Chrome en Mac',
  backed_up: false,
  created_at: '2026-11-20T08:00:00.000Z',
  last_used_at: null,
};

/**
 * Renders the screen for a customer with (or without) a password, answering each call by its path
 * (`/passkeys/register/options`, `/passkeys/register`, ...); the list is empty.
 */
async function renderPasskeys(answers: Record<string, () => Response>, hasPassword = true) {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'C1', name: 'Ana', email: 'ana@club.test' },
  });
  const fetchMock = vi.fn<typeof fetch>(async (input) => {
    const path = new URL(String(input), 'http://x').pathname.replace(/^\/[^/]+\/api\/1\.0/, '');
    if (path.startsWith('/user/profile/')) return json(200, { has_password: hasPassword });
    if (path === '/passkeys') return json(200, { passkeys: [] });
    const answer = answers[path];
    return answer ? answer() : json(404, { code: 'not_found', message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const rendered = await renderWithRouter(
    <QueryClientProvider client={client}>
      <PasskeysScreen />
    </QueryClientProvider>,
    { path: '/passkeys' },
  );
  /** The body sent to `path`, each time it was called. */
  const bodies = (path: string) =>
    fetchMock.mock.calls
      .filter(([url]) => String(url).endsWith(path))
      .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
  return { ...rendered, bodies };
}

/** The device's prompt: `create` answers a credential, or rejects as the browser does. */
function fakeAuthenticator(create: () => Promise<unknown>) {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  Object.defineProperty(navigator, 'credentials', { value: { create }, configurable: true });
}
const credential = () =>
  Promise.resolve({
    id: 'AQID',
    rawId: new Uint8Array([1, 2, 3]).buffer,
    type: 'public-key',
    response: {
      clientDataJSON: new Uint8Array([1]).buffer,
      attestationObject: new Uint8Array([2]).buffer,
    },
    authenticatorAttachment: 'platform',
    getClientExtensionResults: () => ({}),
  });

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'credentials');
});

const addButton = () => screen.findByRole('button', { name: 'Añadir una llave de acceso' });

describe('adding a passkey proves it is the owner', () => {
  it('asks a customer with a password for it, then the device makes the passkey', async () => {
    fakeAuthenticator(credential);
    const { bodies } = await renderPasskeys({
      '/passkeys/register/options': () => json(200, options),
      '/passkeys/register': () => json(200, passkey),
    });
    const user = userEvent.setup();
    await user.click(await addButton());
    const dialog = await screen.findByRole('dialog', { name: 'Confirma que eres tú' });
    const field = within(dialog).getByLabelText('Contraseña actual');
    expect(field.getAttribute('autocomplete')).toBe('current-password');
    // Nothing is asked of the server before the password is typed.
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect(within(dialog).getByText('Escribe tu contraseña actual.')).toBeTruthy();
    expect(bodies('/passkeys/register/options')).toEqual([]);

    await user.type(field, 'Demo1234!');
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'Llave de acceso «Chrome en Mac» añadida.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bodies('/passkeys/register/options')).toEqual([{ current_password: 'Demo1234!' }]);
  });

  it('keeps the dialog open with the password typed when it is wrong, and says so', async () => {
    const create = vi.fn(credential);
    fakeAuthenticator(create);
    await renderPasskeys({ '/passkeys/register/options': wrongPassword });
    const user = userEvent.setup();
    await user.click(await addButton());
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText<HTMLInputElement>('Contraseña actual');
    await user.type(field, 'Demo1234?');
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect(await within(dialog).findByText('La contraseña actual no es correcta.')).toBeTruthy();
    expect(field.value).toBe('Demo1234?');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field);
    expect(create).not.toHaveBeenCalled();
  });

  it('says how long to wait after too many wrong passwords', async () => {
    await renderPasskeys({
      '/passkeys/register/options': () =>
        new Response(JSON.stringify({ message: 'Slow down', code: 'rate_limited' }), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '600' },
        }),
    });
    const user = userEvent.setup();
    await user.click(await addButton());
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Contraseña actual'), 'Demo1234?');
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Demasiados intentos. Espera 10 minutos antes de volver a intentarlo.',
    );
  });

  it('closes the dialog and says so when the device prompt is cancelled', async () => {
    fakeAuthenticator(() => Promise.reject(new DOMException('Cancelled', 'NotAllowedError')));
    await renderPasskeys({ '/passkeys/register/options': () => json(200, options) });
    const user = userEvent.setup();
    await user.click(await addButton());
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Contraseña actual'), 'Demo1234!');
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No se ha creado ninguna llave de acceso.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks a customer without a password nothing: the device at once', async () => {
    const create = vi.fn(credential);
    fakeAuthenticator(create);
    const { bodies } = await renderPasskeys(
      {
        '/passkeys/register/options': () => json(200, options),
        '/passkeys/register': () => json(200, passkey),
      },
      false,
    );
    const user = userEvent.setup();
    await waitFor(async () => expect((await addButton()).hasAttribute('disabled')).toBe(false));
    await user.click(await addButton());
    expect((await screen.findByRole('status')).textContent).toContain(
      'Llave de acceso «Chrome en Mac» añadida.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(create).toHaveBeenCalledOnce();
    expect(bodies('/passkeys/register/options')).toEqual([{ current_password: '' }]);
  });

  it('sends a customer without a password whose sign-in is too old to sign in again', async () => {
    const { router } = await renderPasskeys(
      { '/passkeys/register/options': reauthenticationRequired, '/logout': () => json(200, {}) },
      false,
    );
    const user = userEvent.setup();
    await waitFor(async () => expect((await addButton()).hasAttribute('disabled')).toBe(false));
    await user.click(await addButton());
    expect(
      await screen.findByText(
        'Por seguridad, este cambio solo puede hacerse en los 10 minutos siguientes a iniciar sesión. Vuelve a iniciar sesión y podrás hacerlo.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Volver a iniciar sesión' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getAuth().accessToken).toBeUndefined();
    // Back here once signed in again.
    expect(readStorage(storageKeys.lastPath)).toBe('/passkeys');
  });
});
