import { beforeEach, describe, expect, it, vi } from 'vitest';
import { languageDetector } from './language-detector';

function browserLanguages(languages: string[]) {
  vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(window.navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
}

// The app's i18next (test setup) has already stored what it detected.
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

  it("stores every language change, never i18next's test language", () => {
    languageDetector.cacheUserLanguage?.('ca');
    expect(localStorage.getItem('language')).toBe('ca');
    languageDetector.cacheUserLanguage?.('cimode');
    expect(localStorage.getItem('language')).toBe('ca');
  });

  it('loses the choice quietly when the storage cannot be written', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    expect(() => languageDetector.cacheUserLanguage?.('en')).not.toThrow();
  });
});
