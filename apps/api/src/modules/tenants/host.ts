/** Spec §1: the tenant of `localhost`, of an IPv4 address and of a one-label host name. */
export const fallbackTenant = '1';

const ipv4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The tenant of a request that carries none in its path (the web app's own files, such as the
 * manifest): the first dot-separated label of the host name, as the web app reads it
 * (apps/web/src/lib/tenant.ts, spec §1). `demo.localhost` is tenant `demo`.
 */
export function tenantFromHostname(hostname: string): string {
  const host = hostname.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const labels = host.split('.');
  if (host === 'localhost' || ipv4.test(host) || labels.length < 2 || !labels[0]) {
    return fallbackTenant;
  }
  return labels[0];
}
