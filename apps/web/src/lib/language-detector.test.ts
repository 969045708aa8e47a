import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { languageDetector } from './language-detector';

function browserLanguages(languages: string[]) {
  vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(window.navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
}

beforeEach(() => localStorage.clear());

describe('language detector (spec §4)', () => {
  it("offers the browser's languages, in its order, when nothing is stored", () => {
    browserLanguages(['en-GB', 'ca']);
    expect(languageDetector.detect()).toEqual(['en-GB', 'ca', 'en-GB']);
  });

  it('puts the stored choice first', () => {
    browserLanguages(['en-GB', 'ca']);
    localStorage.setItem('language', 'eu');
    expect(languageDetector.detect()).toEqual(['eu', 'en-GB', 'ca', 'en-GB']);
  });

  it('offers no code i18next would refuse: nothing stored, empty or with markup', () => {
    browserLanguages(['', 'es-ES']);
    localStorage.setItem('language', '<b>x</b>');
    expect(languageDetector.detect()).toEqual(['es-ES']);
  });

  it('still detects when the storage throws (private browsing, disabled storage)', () => {
    browserLanguages(['ca-ES']);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    expect(languageDetector.detect()).toEqual(['ca-ES', 'ca-ES']);
  });

  it('stores nothing it detected: only a choice is kept (lib/i18n.ts changeLanguage)', async () => {
    browserLanguages(['en-US']);
    const instance = i18next.createInstance().use(languageDetector);
    await instance.init({
      supportedLngs: ['es', 'en'],
      load: 'languageOnly',
      fallbackLng: 'es',
      resources: { es: { translation: {} }, en: { translation: {} } },
    });
    expect(instance.languages[0]).toBe('en');
    await instance.changeLanguage('en');
    expect(localStorage.getItem('language')).toBeNull();
  });
});
