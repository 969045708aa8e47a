import { linkableAppPaths } from '@portal/contract/links';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { appLinkOf } from './app-link';

describe('appLinkOf', () => {
  it('keeps the pages of the app and https addresses', () => {
    expect(appLinkOf('/invoice-detail/F-2025-1')).toEqual({
      kind: 'app',
      path: '/invoice-detail/F-2025-1',
    });
    expect(appLinkOf('/mis-pagos')).toEqual({ kind: 'app', path: '/mis-pagos' });
    expect(appLinkOf('https://club.example/horario')).toEqual({
      kind: 'external',
      href: 'https://club.example/horario',
    });
  });

  it('refuses nothing, other sites and odd schemes', () => {
    for (const link of [
      null,
      undefined,
      '',
      '//evil.test/x',
      '/\\evil.test',
      '/\t/evil.test',
      ' /invoices',
      'http://evil.test',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      '/login',
    ]) {
      expect(appLinkOf(link), String(link)).toBeNull();
    }
  });

  it('names only pages the router has', () => {
    const routes = Object.values(paths).map((p) => (typeof p === 'string' ? p : p.pattern));
    for (const path of linkableAppPaths) expect(routes, path).toContain(path);
  });
});
