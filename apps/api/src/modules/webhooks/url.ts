import { isIP } from 'node:net';
import { isWebhookUrlShaped } from '@portal/contract/admin-webhooks';
import { isPublicAddress, type WebhookTargetPolicy } from './address.ts';

const loopbackIpv4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** localhost, *.localhost, 127.0.0.0/8 and ::1: hosts that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    loopbackIpv4.test(host) ||
    host === '[::1]'
  );
}

/**
 * The URL rule of a webhook endpoint: https; plain http only to a loopback host, or anywhere when
 * the server does not run in production (a provider testing against its own machine). No user name
 * or password in the URL. Under the `public-only` policy a literal non-public IP is refused at
 * once (a first, fast check: host names are checked on every connection, see `guardedLookup`).
 * Answers why a URL is refused, or null.
 */
export function webhookUrlProblem(
  value: string,
  options: { production: boolean; targets: WebhookTargetPolicy },
): 'invalid_format' | 'invalid_value' | null {
  if (!isWebhookUrlShaped(value)) return 'invalid_format';
  const url = new URL(value);
  // The URL parser already turned 0x7f.1 or 2130706433 into 127.0.0.1.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (options.targets === 'public-only' && isIP(host) && !isPublicAddress(host)) {
    return 'invalid_value';
  }
  if (url.protocol === 'https:') return null;
  return !options.production || isLoopbackHost(url.hostname) ? null : 'invalid_value';
}
