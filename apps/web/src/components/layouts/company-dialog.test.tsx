import { render, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, i18nReady } from '@/lib/i18n';
import { defaultVisualConfig, VisualConfigContext, type VisualConfig } from '@/lib/visual-config';
import { CompanyDialog } from './company-dialog';

const legal = {
  name: 'Club Deportivo Las Encinas',
  tax_id: 'G28123453',
  address: 'Avenida de las Encinas 24, 28341 Valdemoro (Madrid)',
  contact_email: 'secretaria@lasencinas.test',
  privacy_email: 'privacidad@lasencinas.test',
  dpo_email: '',
  phone: '+34 910 000 024',
  website: 'https://lasencinas.test',
  opening_hours: 'L-V 7:00-22:30',
};

async function renderDialog(config: Partial<VisualConfig['legal']>) {
  render(
    <VisualConfigContext.Provider
      value={{ ...defaultVisualConfig, companyName: 'Las Encinas', legal: { ...legal, ...config } }}
    >
      <CompanyDialog open onClose={() => {}} />
    </VisualConfigContext.Provider>,
  );
  return screen.findByRole('dialog', { name: 'Sobre la empresa' });
}

/** The dialog's lines as label → text. */
const lines = (dialog: HTMLElement) =>
  Object.fromEntries(
    within(dialog)
      .queryAllByRole('term')
      .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
  );

describe('the company dialog (review #17)', () => {
  beforeAll(async () => {
    await i18nReady;
    await changeLanguage('es');
  });

  it('says how to reach the organisation: telephone, mailbox, website and hours, as links', async () => {
    const dialog = await renderDialog({});
    expect(lines(dialog)).toEqual({
      Teléfono: '+34 910 000 024',
      'Correo electrónico': 'secretaria@lasencinas.test',
      Web: 'lasencinas.test',
      Horario: 'L-V 7:00-22:30',
      'Razón social': 'Club Deportivo Las Encinas',
      NIF: 'G28123453',
      Dirección: 'Avenida de las Encinas 24, 28341 Valdemoro (Madrid)',
    });
    expect(within(dialog).getByRole('link', { name: '+34 910 000 024' }).getAttribute('href')).toBe(
      'tel:+34910000024',
    );
    const website = within(dialog).getByRole('link', { name: 'lasencinas.test' });
    expect(website.getAttribute('href')).toBe('https://lasencinas.test/');
    expect(website.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('leaves out what the tenant has not set, and a website or telephone that is no safe link', async () => {
    const dialog = await renderDialog({
      phone: 'javascript:alert(1)',
      website: 'javascript:alert(1)',
      opening_hours: '',
      tax_id: '',
    });
    expect(Object.keys(lines(dialog))).toEqual(['Correo electrónico', 'Razón social', 'Dirección']);
    expect(within(dialog).queryByText(/javascript/)).toBeNull();
  });
});
