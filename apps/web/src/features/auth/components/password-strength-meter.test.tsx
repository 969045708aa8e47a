import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { defaultVisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { renderWithRouter } from '@/testing/render-app';
import { ResetPasswordScreen } from './reset-password-screen';

const config = { ...defaultVisualConfig, companyName: 'Club Deportivo Las Encinas' };

async function renderReset(language: 'es' | 'en' = 'es') {
  await renderWithRouter(
    <VisualConfigContext value={config}>
      <ResetPasswordScreen token="t" email="laura@demo.test" />
    </VisualConfigContext>,
    { path: '/reset-password', language },
  );
  const meter = screen.getByTestId('password-strength');
  const words = meter.querySelector('[aria-live="polite"]');
  if (!words) throw new Error('no live region');
  return { meter, words };
}

describe('password strength meter on the reset screen', () => {
  it('says the strength in words as the user types, in a polite live region', async () => {
    const { meter, words } = await renderReset();
    expect(words.textContent).toBe('');
    const field = screen.getByLabelText('Nueva contraseña', { selector: 'input' });
    const user = userEvent.setup();
    await user.type(field, 'abc');
    expect(words.textContent).toBe(
      'Seguridad: No válida. La contraseña debe tener al menos 8 caracteres',
    );
    expect(meter.dataset.score).toBe('0');
    await user.type(field, 'defgh');
    expect(words.textContent).toBe('Seguridad: Débil');
    await user.clear(field);
    await user.type(field, 'Tres-tigres-tristes-77');
    expect(words.textContent).toBe('Seguridad: Fuerte');
    expect(meter.dataset.score).toBe('4');
    // The field names the meter as its description: read with it, not only seen.
    const describedBy = field.getAttribute('aria-describedby') ?? '';
    expect(describedBy.split(' ')).toContain(words.id);
  });

  it("names the rule the password breaks: the e-mail, the organisation's name", async () => {
    const { words } = await renderReset();
    const field = screen.getByLabelText('Nueva contraseña', { selector: 'input' });
    const user = userEvent.setup();
    await user.type(field, 'Laura-2026-xyz');
    expect(words.textContent).toBe(
      'Seguridad: No válida. La contraseña no puede contener tu correo electrónico',
    );
    await user.clear(field);
    await user.type(field, 'Las-Encinas-99');
    expect(words.textContent).toBe(
      'Seguridad: No válida. La contraseña no puede contener el nombre de la organización',
    );
  });

  it('is translated', async () => {
    const { words } = await renderReset('en');
    await userEvent
      .setup()
      .type(screen.getByLabelText('New password', { selector: 'input' }), 'Xk9#mP2$vL');
    expect(words.textContent).toBe('Strength: Good');
  });
});
