import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultVisualConfig, loadVisualConfig } from './visual-config';

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.resolve(new Response(JSON.stringify(body), { status }))),
  );
}

describe('loadVisualConfig', () => {
  it('uses the tenant branding, normalises the colour and names the tab', async () => {
    answer(200, {
      logo_url: '/1/api/1.0/visual-config/logo',
      primary_color: '1A73E8',
      company_name: 'Club Náutico',
      description: 'Socios',
      sign_in_providers: ['google'],
      sign_in_link: true,
      second_factor: 'optional',
      passkeys: true,
      testing_mode: true,
      test_mode: true,
      legal: {
        name: 'Club Náutico S.L.',
        tax_id: 'B12345674',
        address: 'Muelle 1, Valencia',
        contact_email: 'hola@nautico.test',
        privacy_email: 'privacidad@nautico.test',
        dpo_email: '',
      },
      auto_pay: true,
    });
    const config = await loadVisualConfig();
    expect(config).toEqual({
      logoUrl: '/1/api/1.0/visual-config/logo',
      primaryColor: '#1A73E8',
      companyName: 'Club Náutico',
      description: 'Socios',
      signInProviders: ['google'],
      signInLink: true,
      secondFactor: 'optional',
      passkeys: true,
      testingMode: true,
      testMode: true,
      legal: {
        name: 'Club Náutico S.L.',
        tax_id: 'B12345674',
        address: 'Muelle 1, Valencia',
        contact_email: 'hola@nautico.test',
        privacy_email: 'privacidad@nautico.test',
        dpo_email: '',
        // An API of before migration 012 sends none of these: empty, so nothing is shown.
        phone: '',
        website: '',
        opening_hours: '',
      },
      autoPay: true,
    });
    expect(document.title).toBe('Club Náutico');
    expect(document.documentElement.style.getPropertyValue('--color-primary-500')).not.toBe('');
  });

  it('logs and falls back to the defaults when the call fails', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    answer(404, { message: 'Unknown tenant', code: 'tenant_not_found' });
    expect(await loadVisualConfig()).toEqual(defaultVisualConfig);
    expect(log).toHaveBeenCalled();
    expect(document.title).toBe('Oficina Online');
    expect(document.documentElement.style.getPropertyValue('--color-primary-500')).toBe('#ff9900');
  });
});
