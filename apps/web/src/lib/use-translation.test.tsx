import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage, i18n, i18nReady } from './i18n';
import { Trans, useTranslation } from './use-translation';

afterEach(async () => {
  await i18n.changeLanguage('es');
});

function Title() {
  const { t, i18n: current } = useTranslation(['invoices', 'common']);
  return (
    <h1 lang={current.language}>
      {t('common.viewMore')} · {t('common:app.loading')}
    </h1>
  );
}

describe('useTranslation (docs/decisions/030)', () => {
  it("shows the screen's strings, and the new language's after a change", async () => {
    await i18nReady;
    await i18n.changeLanguage('es');
    render(
      <Suspense fallback={<p>cargando</p>}>
        <Title />
      </Suspense>,
    );
    const spanish = await screen.findByRole('heading');
    expect(spanish.getAttribute('lang')).toBe('es');
    expect(spanish.textContent).toBe('Ver más · Cargando…');
    await act(() => changeLanguage('ca'));
    const catalan = await screen.findByRole('heading');
    expect(catalan.getAttribute('lang')).toBe('ca');
    expect(catalan.textContent).toBe("Mostra'n més · Carregant…");
    expect(document.documentElement.lang).toBe('ca');
  });
});

describe('Trans', () => {
  it('puts the text between the tags in the given element, as text', () => {
    render(
      <p>
        <Trans
          text="Escríbenos a <mail><b>x</b>@club.test</mail>, gracias."
          components={{ mail: <a href="mailto:x@club.test" /> }}
        />
      </p>,
    );
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe('mailto:x@club.test');
    // The text inside stays text: React escapes it, no element is made from it.
    expect(link.textContent).toBe('<b>x</b>@club.test');
    expect(link.querySelector('b')).toBeNull();
    expect(link.parentElement?.textContent).toBe('Escríbenos a <b>x</b>@club.test, gracias.');
  });
});
