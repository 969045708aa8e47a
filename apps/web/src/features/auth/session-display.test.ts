import { describe, expect, it } from 'vitest';
import { deviceName, formatMoment } from './session-display';

describe('deviceName', () => {
  it('joins browser and system, or says unknown', () => {
    expect(deviceName({ browser: 'Chrome 131', os: 'Windows 10' }, '?')).toBe(
      'Chrome 131 · Windows 10',
    );
    expect(deviceName({ browser: '', os: 'iOS 17' }, '?')).toBe('iOS 17');
    expect(deviceName({ browser: '', os: '' }, 'Navegador desconocido')).toBe(
      'Navegador desconocido',
    );
  });
});

describe('formatMoment', () => {
  it("words a moment on Madrid's clock in the reader's language", () => {
    expect(formatMoment('2026-11-26T06:05:00.000Z', 'es')).toBe('26 nov 2026, 7:05');
    expect(formatMoment('2026-07-01T22:30:00.000Z', 'en')).toMatch(/2 Jul 2026, 00:30/);
  });

  it('gives nothing for what is not a moment', () => {
    expect(formatMoment('nope', 'es')).toBe('');
  });
});
