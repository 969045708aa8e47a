import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { type MockAnswer, mockApi, renderWithQuery } from '@/testing/mock-api';
import { ContactScreen } from './contact-screen';

beforeEach(() => {
  setAuth({ accessToken: 't', user: { id: 'u1', code: 'C', name: 'Ana', email: 'a@x.test' } });
});
afterEach(() => vi.unstubAllGlobals());

const field = (name: string) => screen.getByLabelText(name);

async function fill(user: ReturnType<typeof userEvent.setup>, message = '¿Abrís en agosto?') {
  await user.clear(field('Nombre'));
  await user.type(field('Nombre'), 'Laura');
  await user.type(field('Empresa'), 'Particular');
  await user.type(field('Asunto'), 'Horario de agosto');
  await user.type(field('Mensaje'), message);
  await user.click(
    screen.getByRole('checkbox', { name: 'He leído y acepto la política de privacidad' }),
  );
}

const submit = () => screen.getByRole('button', { name: 'Enviar mensaje' });

describe('contact (spec §2 "Contact", §5)', () => {
  it('catches empty fields before any call, with the texts of spec §5, focus on the first', async () => {
    const calls = mockApi({});
    await renderWithQuery(<ContactScreen />, { path: '/contacto' });
    const user = userEvent.setup();
    // The signed-in customer's name comes filled in, and where the answer goes is said (#18).
    expect((field('Nombre') as HTMLInputElement).value).toBe('Ana');
    expect(screen.getByText('Te responderemos a a@x.test.')).toBeTruthy();
    await user.clear(field('Nombre'));
    await user.type(field('Asunto'), '   ');
    await user.click(submit());

    for (const name of ['Nombre', 'Empresa', 'Asunto', 'Mensaje']) {
      const input = field(name);
      expect(input.getAttribute('aria-invalid'), name).toBe('true');
      const errorId = input.getAttribute('aria-describedby')?.split(' ')[0] ?? '';
      expect(document.getElementById(errorId)?.textContent).toBe('Este campo es obligatorio');
    }
    expect(screen.getByText('Debe aceptar la política de privacidad')).toBeTruthy();
    expect(document.activeElement).toBe(field('Nombre'));
    expect(calls).toHaveLength(0);

    // An error goes as its field is corrected.
    await user.type(field('Nombre'), 'L');
    expect(field('Nombre').hasAttribute('aria-invalid')).toBe(false);
    expect(field('Empresa').getAttribute('aria-invalid')).toBe('true');
  });

  it('sends the message, shows the success view, and "send new message" gives an empty form', async () => {
    const calls = mockApi({
      '/contact': () => ({ status: 201, json: { id: 'm1', message: 'Message received' } }),
    });
    await renderWithQuery(<ContactScreen />, { path: '/contacto' });
    const user = userEvent.setup();
    await fill(user);
    await user.click(submit());

    const title = await screen.findByRole('heading', { name: 'Mensaje enviado' });
    expect(document.activeElement).toBe(title);
    expect(calls[0]).toEqual({
      path: '/contact',
      body: {
        name: 'Laura',
        company: 'Particular',
        subject: 'Horario de agosto',
        message: '¿Abrís en agosto?',
        acceptPrivacy: true,
      },
    });
    expect(screen.getByRole('link', { name: 'Volver al inicio' }).getAttribute('href')).toBe(
      '/home',
    );

    await user.click(screen.getByRole('button', { name: 'Enviar nuevo mensaje' }));
    // A fresh form: the customer's name again, nothing else.
    expect((field('Nombre') as HTMLInputElement).value).toBe('Ana');
    expect((field('Mensaje') as HTMLTextAreaElement).value).toBe('');
    expect(
      (screen.getByRole('checkbox', { name: /política de privacidad/ }) as HTMLInputElement)
        .checked,
    ).toBe(false);
    expect(document.activeElement).toBe(field('Nombre'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses an over-long message while typing and when sending, keeping it whole', async () => {
    const calls = mockApi({});
    await renderWithQuery(<ContactScreen />, { path: '/contacto' });
    const user = userEvent.setup();
    await fill(user, 'x');
    const message = field('Mensaje') as HTMLTextAreaElement;
    await user.clear(message);
    await user.click(message);
    await user.paste('y'.repeat(5001));
    expect(message.value).toHaveLength(5001);
    expect(screen.getByText('5001 de 5000 caracteres')).toBeTruthy();
    expect(screen.getByText('No puede superar los 5000 caracteres (tiene 5001)')).toBeTruthy();

    await user.click(submit());
    expect(calls).toHaveLength(0);
    expect(document.activeElement).toBe(message);
    expect(message.value).toHaveLength(5001);
  });

  it("puts the server's field errors on their fields, keeping what was typed", async () => {
    mockApi({
      '/contact': () => ({
        status: 422,
        json: {
          code: 'validation_failed',
          message: 'Invalid',
          errors: { subject: ['too_long'], company: ['something_else'] },
        },
      }),
    });
    await renderWithQuery(<ContactScreen />, { path: '/contacto' });
    const user = userEvent.setup();
    await fill(user);
    await user.click(submit());

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Revisa los campos marcados: el mensaje no se ha enviado.',
    );
    expect(field('Asunto').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('No puede superar los 200 caracteres (tiene 17)')).toBeTruthy();
    expect(screen.getByText('El valor no es válido')).toBeTruthy();
    expect(document.activeElement).toBe(field('Empresa'));
    expect((field('Mensaje') as HTMLTextAreaElement).value).toBe('¿Abrís en agosto?');
  });

  it.each<[string, MockAnswer | 'network', string]>([
    [
      'too many messages',
      { status: 429, json: { code: 'rate_limited', message: 'Too many' } },
      'Has enviado demasiados mensajes seguidos. Vuelve a intentarlo más tarde; lo que has escrito sigue aquí.',
    ],
    [
      'no connection',
      'network',
      'No se ha podido conectar con el servidor. Comprueba tu conexión y vuelve a intentarlo; lo que has escrito sigue aquí.',
    ],
    [
      'a server error',
      { status: 500, json: { code: 'internal_error', message: 'boom' } },
      'No se ha podido enviar el mensaje. Vuelve a intentarlo más tarde; lo que has escrito sigue aquí.',
    ],
  ])('says so on %s, and sends again from the same form', async (_, answer, text) => {
    let failing = true;
    mockApi({
      '/contact': () => {
        if (!failing) return { status: 201, json: { id: 'm1', message: 'ok' } };
        if (answer === 'network') throw new TypeError('Failed to fetch');
        return answer;
      },
    });
    await renderWithQuery(<ContactScreen />, { path: '/contacto' });
    const user = userEvent.setup();
    await fill(user);
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect((field('Nombre') as HTMLInputElement).value).toBe('Laura');
    expect((field('Mensaje') as HTMLTextAreaElement).value).toBe('¿Abrís en agosto?');

    failing = false;
    await user.click(submit());
    expect(await screen.findByRole('heading', { name: 'Mensaje enviado' })).toBeTruthy();
  });

  it('tells how long to wait when the server says', async () => {
    mockApi({});
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ code: 'rate_limited', message: 'Too many' }), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '1740' },
          }),
      ),
    );
    await renderWithQuery(<ContactScreen />, { path: '/contacto' });
    const user = userEvent.setup();
    await fill(user);
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toContain('Espera 29 minutos');
  });

  it('disables the button while sending (no double sends)', async () => {
    let answer: (value: MockAnswer) => void = () => {};
    const calls = mockApi({ '/contact': () => new Promise((resolve) => (answer = resolve)) });
    await renderWithQuery(<ContactScreen />, { path: '/contacto' });
    const user = userEvent.setup();
    await fill(user);
    await user.click(submit());
    const busy = await screen.findByRole('button', { name: 'Enviando…' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    await user.click(busy);
    expect(calls).toHaveLength(1);
    answer({ status: 201, json: { id: 'm1', message: 'ok' } });
    await screen.findByRole('heading', { name: 'Mensaje enviado' });
  });

  it('opens the privacy policy in a new tab, so nothing typed is lost', async () => {
    mockApi({});
    await renderWithQuery(<ContactScreen />, { path: '/contacto' });
    const link = screen.getByRole('link', { name: /Leer la política de privacidad/ });
    expect(link.getAttribute('href')).toBe('/privacidad');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(within(link).getByText('(se abre en una pestaña nueva)')).toBeTruthy();
  });

  it('speaks the chosen language', async () => {
    mockApi({});
    await renderWithQuery(<ContactScreen />, { path: '/contacto', language: 'eu' });
    await userEvent.click(screen.getByRole('button', { name: 'Bidali mezua' }));
    // The name is the customer's, filled in: the three other texts are required.
    await waitFor(() => expect(screen.getAllByText('Eremu hau derrigorrezkoa da')).toHaveLength(3));
    expect(screen.getByText('Pribatutasun-politika onartu behar duzu')).toBeTruthy();
  });
});
