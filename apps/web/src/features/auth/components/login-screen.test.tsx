import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAuth } from '@/lib/auth-store';
import { renderWithRouter } from '@/testing/render-app';
import { LoginScreen } from './login-screen';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

function answerLogin(response: () => Response) {
  const fetchMock = vi.fn<typeof fetch>(async () => response());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

async function fill(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText('Correo electrónico'), email);
  if (password) await user.type(screen.getByLabelText('Contraseña'), password);
  await user.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
  return user;
}

describe('login screen (spec §2, §5, §8)', () => {
  it('validates before calling: messages tied to the fields, focus on the first invalid one', async () => {
    const fetchMock = answerLogin(() => json(500, {}));
    await renderWithRouter(<LoginScreen />, { path: '/login' });
    await fill('', '');
    const email = screen.getByLabelText('Correo electrónico');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email);
    const described = email.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(described)?.textContent).toBe('Este campo es obligatorio');
    expect(screen.getAllByText('Este campo es obligatorio')).toHaveLength(2);
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.setup().type(email, 'no-es-un-correo');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(screen.getByText('Introduce un correo electrónico válido')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('signs in, stores the user and token, and returns to the last visited path', async () => {
    localStorage.setItem('lastPath', '/invoices?page=2');
    const fetchMock = answerLogin(() =>
      json(200, {
        access_token: 'tok',
        user: { id: '1', code: 'C1', name: 'Ana', email: 'a@b.es' },
      }),
    );
    const { router } = await renderWithRouter(<LoginScreen />, { path: '/login' });
    await fill('a@b.es', 'secreto');
    await waitFor(() => expect(router.state.location.pathname).toBe('/invoices'));
    expect(router.state.location.search).toBe('?page=2');
    expect(getAuth()).toEqual({
      accessToken: 'tok',
      user: { id: '1', code: 'C1', name: 'Ana', email: 'a@b.es' },
    });
    expect(localStorage.getItem('lastPath')).toBeNull();
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({
      email: 'a@b.es',
      password: 'secreto',
      remember: false,
    });
  });

  it('goes to /home when nothing was saved, and sends remember-me when ticked', async () => {
    const fetchMock = answerLogin(() =>
      json(200, {
        access_token: 'tok',
        user: { id: '1', code: 'C1', name: 'Ana', email: 'a@b.es' },
      }),
    );
    const { router } = await renderWithRouter(<LoginScreen />, { path: '/login' });
    await userEvent.setup().click(screen.getByLabelText('Recordarme'));
    await fill('a@b.es', 'secreto');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(JSON.parse(String(init?.body))).toMatchObject({ remember: true });
  });

  it('shows "Credenciales inválidas" on both fields when the sign-in is refused', async () => {
    answerLogin(() => json(401, { code: 'invalid_credentials', message: 'Invalid' }));
    await renderWithRouter(<LoginScreen />, { path: '/login' });
    await fill('a@b.es', 'mala');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Credenciales inválidas');
    for (const label of ['Correo electrónico', 'Contraseña']) {
      const field = screen.getByLabelText(label);
      expect(field.getAttribute('aria-invalid')).toBe('true');
      expect(field.getAttribute('aria-describedby')).toContain(alert.id);
    }
    expect(getAuth()).toEqual({});
  });

  it('treats an answer without user or token as incomplete', async () => {
    answerLogin(() => json(200, { access_token: 'tok' }));
    await renderWithRouter(<LoginScreen />, { path: '/login' });
    await fill('a@b.es', 'secreto');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'La respuesta de autenticación está incompleta. Inténtalo de nuevo.',
    );
    expect(getAuth()).toEqual({});
  });

  it('tells how many minutes to wait after too many attempts', async () => {
    answerLogin(() => json(429, { code: 'rate_limited' }, { 'Retry-After': '170' }));
    await renderWithRouter(<LoginScreen />, { path: '/login' });
    await fill('a@b.es', 'secreto');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Demasiados intentos. Espera 3 minutos antes de volver a intentarlo.',
    );
  });

  it('disables the button with a spinner while signing in', async () => {
    let release: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (release = resolve))),
    );
    await renderWithRouter(<LoginScreen />, { path: '/login' });
    await fill('a@b.es', 'secreto');
    const busy = await screen.findByRole('button', { name: 'Iniciando sesión…' });
    expect(busy).toHaveProperty('disabled', true);
    release(json(401, { code: 'invalid_credentials' }));
    expect(await screen.findByRole('button', { name: 'Iniciar sesión' })).toHaveProperty(
      'disabled',
      false,
    );
  });

  it('shows a failed external sign-in sent back by the API', async () => {
    await renderWithRouter(<LoginScreen />, { path: '/login?signin_error=sign_in_failed' });
    expect(screen.getByRole('alert').textContent).toBe(
      'No se ha podido iniciar sesión con el proveedor externo. Inténtalo de nuevo.',
    );
  });

  it('toggles the password between hidden and shown', async () => {
    await renderWithRouter(<LoginScreen />, { path: '/login' });
    const password = screen.getByLabelText('Contraseña');
    expect(password.getAttribute('type')).toBe('password');
    expect(password.getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByLabelText('Correo electrónico').getAttribute('autocomplete')).toBe('email');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Mostrar contraseña' }));
    expect(password.getAttribute('type')).toBe('text');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Ocultar contraseña' }));
    expect(password.getAttribute('type')).toBe('password');
  });
});
