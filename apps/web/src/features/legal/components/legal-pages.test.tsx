import type { ReactElement } from 'react';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/testing/render-app';
import { defaultVisualConfig, type VisualConfig, VisualConfigContext } from '@/lib/visual-config';
import type { Language } from '@/lib/i18n';
import es from '@/locales/es/legal.json';
import ca from '@/locales/ca/legal.json';
import { AccessibilityStatement } from './accessibility-statement';
import { CookiePolicy } from './cookie-policy';
import { PrivacyPolicy, regulatorUrl } from './privacy-policy';
import { SecurityPolicy } from './security-policy';

const tenant: VisualConfig = {
  ...defaultVisualConfig,
  companyName: 'Club Deportivo Las Encinas',
  legal: {
    name: 'Club Deportivo Las Encinas',
    tax_id: 'G28123453',
    address: 'Avenida de las Encinas 24, 28341 Valdemoro (Madrid)',
    contact_email: 'secretaria@lasencinas.test',
    privacy_email: 'privacidad@lasencinas.test',
    dpo_email: 'dpd@lasencinas.test',
    phone: '',
    website: '',
    opening_hours: '',
  },
};

function renderPage(page: ReactElement, { config = tenant, language = 'es' as Language } = {}) {
  return renderWithRouter(<VisualConfigContext value={config}>{page}</VisualConfigContext>, {
    language,
  });
}

/** The numbered sections: the h2 headings of the text column (not the contents, not "related"). */
async function sectionTitles() {
  const article = await screen.findByRole('article');
  return within(article)
    .getAllByRole('region')
    .map((region) => within(region).getAllByRole('heading', { level: 2 })[0]?.textContent);
}

const mailto = (email: string) =>
  screen.getAllByRole('link', { name: email }).map((link) => link.getAttribute('href'));

describe('privacy policy', () => {
  it('has the eight sections of the spec, the ten principles and the regulator', async () => {
    await renderPage(<PrivacyPolicy />);
    expect(
      await screen.findByRole('heading', { level: 1, name: es.links.privacy.title }),
    ).toBeTruthy();
    const p = es.privacy;
    expect(await sectionTitles()).toEqual(
      [
        p.controller.title,
        p.company.title,
        p.principles.title,
        p.purposes.title,
        p.legalBasis.title,
        p.retention.title,
        p.rights.title,
        p.complaint.title,
      ].map((title, i) => `${i + 1}.${title}`),
    );
    const principles = screen.getByRole('region', { name: new RegExp(p.principles.title) });
    expect(within(principles).getAllByRole('listitem')).toHaveLength(10);
    const regulator = screen.getByRole('link', { name: new RegExp(p.complaint.link.slice(0, 20)) });
    expect(regulator.getAttribute('href')).toBe(regulatorUrl);
    expect(regulator.getAttribute('target')).toBe('_blank');
    expect(regulator.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it("shows the tenant's identity and mailboxes, the DPO when there is one", async () => {
    await renderPage(<PrivacyPolicy />);
    const identity = await screen.findByRole('region', {
      name: new RegExp(es.privacy.company.title),
    });
    for (const value of ['G28123453', 'Avenida de las Encinas 24, 28341 Valdemoro (Madrid)']) {
      expect(within(identity).getByText(value)).toBeTruthy();
    }
    expect(mailto('secretaria@lasencinas.test')).toContain('mailto:secretaria@lasencinas.test');
    expect(mailto('privacidad@lasencinas.test')).toContain('mailto:privacidad@lasencinas.test');
    expect(mailto('dpd@lasencinas.test')).toContain('mailto:dpd@lasencinas.test');
    expect(screen.getByText(es.identity.dpoEmail)).toBeTruthy();
  });

  it('leaves the DPO out when the tenant has none', async () => {
    await renderPage(<PrivacyPolicy />, {
      config: { ...tenant, legal: { ...tenant.legal, dpo_email: '' } },
    });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByText(es.identity.dpoEmail)).toBeNull();
    expect(screen.queryByRole('link', { name: /dpd@/ })).toBeNull();
  });

  it('links to the security, cookie and accessibility pages', async () => {
    await renderPage(<PrivacyPolicy />);
    const related = await screen.findByRole('navigation', { name: es.page.related });
    const links = within(related).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/seguridad',
      '/cookies',
      '/accesibilidad',
    ]);
  });

  it('reads in Catalan with the same tenant data', async () => {
    await renderPage(<PrivacyPolicy />, { language: 'ca' });
    expect(
      await screen.findByRole('heading', { level: 1, name: ca.links.privacy.title }),
    ).toBeTruthy();
    expect(
      screen.getByRole('heading', { name: new RegExp(ca.privacy.complaint.title) }),
    ).toBeTruthy();
    expect(mailto('privacidad@lasencinas.test').length).toBeGreaterThan(0);
  });
});

describe('security policy', () => {
  it('has five sections, six measures and three sensitive-data points', async () => {
    await renderPage(<SecurityPolicy />);
    const s = es.security;
    expect(await sectionTitles()).toEqual(
      [
        s.commitment.title,
        s.measures.title,
        s.sensitiveData.title,
        s.recommendations.title,
        s.incidents.title,
      ].map((title, i) => `${i + 1}.${title}`),
    );
    const measures = screen.getByRole('region', { name: new RegExp(s.measures.title) });
    expect(within(measures).getAllByRole('listitem')).toHaveLength(6);
    const sensitive = screen.getByRole('region', { name: new RegExp(s.sensitiveData.title) });
    expect(within(sensitive).getAllByRole('listitem')).toHaveLength(3);
    expect(mailto('secretaria@lasencinas.test')).toEqual(['mailto:secretaria@lasencinas.test']);
    const related = screen.getByRole('navigation', { name: es.page.related });
    expect(
      within(related)
        .getAllByRole('link')
        .map((l) => l.getAttribute('href')),
    ).toEqual(['/privacidad', '/cookies', '/accesibilidad']);
  });
});

describe('accessibility statement (issue 23 item 8)', () => {
  it("has the model's sections, its three kinds of non-accessible content, the dates and the tenant's mailbox", async () => {
    await renderPage(<AccessibilityStatement />);
    expect(
      await screen.findByRole('heading', { level: 1, name: es.links.accessibility.title }),
    ).toBeTruthy();
    const a = es.accessibility;
    expect(await sectionTitles()).toEqual(
      [
        a.status.title,
        a.nonAccessible.title,
        a.preparation.title,
        a.contact.title,
        a.enforcement.title,
        a.measures.title,
      ].map((title, i) => `${i + 1}.${title}`),
    );
    // The commitment, the standard and an honest conformance level.
    expect(screen.getByText(/se ha comprometido a hacer accesible/)).toBeTruthy();
    const status = screen.getByRole('region', { name: new RegExp(a.status.title) });
    expect(status.textContent).toContain('parcialmente conforme');
    expect(status.textContent).toContain('UNE-EN 301549:2022');
    expect(status.textContent).toContain('WCAG) 2.1, nivel AA');
    const known = screen.getByRole('region', { name: new RegExp(a.nonAccessible.title) });
    const kinds = within(known)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('strong')?.textContent);
    expect(kinds).toEqual([
      'Falta de conformidad:',
      'Carga desproporcionada:',
      'Contenido fuera del ámbito de aplicación:',
    ]);
    const preparation = screen.getByRole('region', { name: new RegExp(a.preparation.title) });
    expect(preparation.textContent).toContain('Esta declaración se preparó el 26/11/2026');
    expect(preparation.textContent).toContain('Se revisó por última vez el 26/11/2026');
    expect(preparation.textContent).toMatch(/axe-core.*teclado y lector de pantalla/);
    const enforcement = screen.getByRole('region', { name: new RegExp(a.enforcement.title) });
    expect(enforcement.textContent).toContain('OADIS');
    const measures = screen.getByRole('region', { name: new RegExp(a.measures.title) });
    expect(within(measures).getAllByRole('listitem')).toHaveLength(5);
    expect(mailto('secretaria@lasencinas.test')).toEqual(['mailto:secretaria@lasencinas.test']);
    const related = screen.getByRole('navigation', { name: es.page.related });
    expect(
      within(related)
        .getAllByRole('link')
        .map((l) => l.getAttribute('href')),
    ).toEqual(['/privacidad', '/seguridad', '/cookies']);
  });

  it('reads in Catalan', async () => {
    await renderPage(<AccessibilityStatement />, { language: 'ca' });
    expect(
      await screen.findByRole('heading', { level: 1, name: ca.links.accessibility.title }),
    ).toBeTruthy();
    expect(screen.getByText(/parcialment conforme/)).toBeTruthy();
  });
});

describe('cookie policy', () => {
  it('shows the accept-all switch on and disabled, the operator mailbox and the links', async () => {
    await renderPage(<CookiePolicy />);
    const toggle = await screen.findByRole('switch', { name: es.cookies.consent.acceptAll });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect((toggle as HTMLButtonElement).disabled).toBe(true);
    const description = document.getElementById(toggle.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe(es.cookies.consent.alwaysOn);
    expect(mailto('privacidad@lasencinas.test')).toEqual(['mailto:privacidad@lasencinas.test']);
    expect(screen.getByText(/refresh_token/)).toBeTruthy();
    expect(screen.getByText(/XSRF-TOKEN/)).toBeTruthy();
    const related = screen.getByRole('navigation', { name: es.page.related });
    expect(
      within(related)
        .getAllByRole('link')
        .map((l) => l.getAttribute('href')),
    ).toEqual(['/privacidad', '/seguridad', '/accesibilidad']);
  });

  it('points to the contact form when the tenant has no mailbox at all', async () => {
    await renderPage(<CookiePolicy />, {
      config: {
        ...tenant,
        legal: { ...tenant.legal, contact_email: '', privacy_email: '', dpo_email: '' },
      },
    });
    const form = await screen.findByRole('link', { name: es.page.contactForm });
    expect(form.getAttribute('href')).toBe('/contacto');
  });
});
