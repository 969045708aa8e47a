import { apiPrefix } from '@portal/contract/paths';

/** Spec §1: the tenant of `localhost`, of an IPv4 address and of a one-label host name. */
export const fallbackTenant = '1';

const ipv4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The host the server renders a page for (entry-server.tsx), where there is no `window`. */
let serverHostname: string | null = null;

/** Runs a server render (synchronous) as if the page were on `hostname`. */
export function renderingFor<T>(hostname: string, render: () => T): T {
  serverHostname = hostname;
  try {
    return render();
  } finally {
    serverHostname = null;
  }
}

/**
 * The tenant is the first dot-separated label of the host name (spec §1), so `demo.localhost`
 * is tenant `demo` and `demo.example.com` is tenant `demo`.
 */
export function getTenant(hostname: string = serverHostname ?? window.location.hostname): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const labels = host.split('.');
  if (host === 'localhost' || ipv4.test(host) || labels.length < 2 || !labels[0]) {
    return fallbackTenant;
  }
  return labels[0];
}

/** Base address of every API call: `/{tenant}/api/1.0` (the contract's `apiPrefix`). */
export function getApiBase(hostname?: string): string {
  return apiPrefix(getTenant(hostname));
}
