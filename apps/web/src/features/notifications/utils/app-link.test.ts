import { describe, expect, it } from 'vitest';
import { appLinkOf } from './app-link';

describe('appLinkOf', () => {
  it('keeps the paths of the app', () => {
    expect(appLinkOf('/invoice-detail/F-2025-1')).toBe('/invoice-detail/F-2025-1');
    expect(appLinkOf('/mis-pagos')).toBe('/mis-pagos');
  });

  it('refuses nothing, other sites and odd schemes', () => {
    for (const link of [
      null,
      undefined,
      '',
      '//evil.test/x',
      '/\\evil.test',
      'https://evil.test',
    ]) {
      expect(appLinkOf(link)).toBeNull();
    }
    expect(appLinkOf('javascript:alert(1)')).toBeNull();
  });
});
