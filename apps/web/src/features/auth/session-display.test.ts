import { describe, expect, it } from 'vitest';
import { deviceName } from './session-display';

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
