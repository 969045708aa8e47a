import { beforeEach, describe, expect, it, vi } from 'vitest';
import { detectLanguages } from './language-detector';

function browserLanguages(languages: string[]) {
  vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(window.navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
}

beforeEach(() => localStorage.clear());

describe('language detector (spec §4)', () => {
  it("offers the browser's languages, in its order, when nothing is stored", () => {
    browserLanguages(['en-GB', 'ca']);
    expect(detectLanguages()).toEqual(['en-GB', 'ca', 'en-GB']);
  });

  it('puts the stored choice first', () => {
    browserLanguages(['en-GB', 'ca']);
    localStorage.setItem('language', 'eu');
    expect(detectLanguages()).toEqual(['eu', 'en-GB', 'ca', 'en-GB']);
  });

  it('offers no code that is not a safe language code: nothing stored, empty or with markup', () => {
    browserLanguages(['', 'es-ES']);
    localStorage.setItem('language', '<b>x</b>');
    expect(detectLanguages()).toEqual(['es-ES']);
  });

  it('still detects when the storage throws (private browsing, disabled storage)', () => {
    browserLanguages(['ca-ES']);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    expect(detectLanguages()).toEqual(['ca-ES', 'ca-ES']);
  });
});
