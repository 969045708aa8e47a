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
 * The URL rule of a webhook endpoint, the same in every mode: https, with no user name or password
 * in the URL. Under the `public-only` policy (the default) a literal non-public IP or a loopback
 * name is refused at once (a first, fast check: host names are checked on every connection, see
 * `guardedLookup`), and so is plain http. With WEBHOOK_ALLOW_PRIVATE (policy `any`) plain http is
 * accepted too: a receiver on the server's own network or machine (the tests' local receiver).
 * Answers why a URL is refused, or null.
 */
export function webhookUrlProblem(
  value: string,
  options: { targets: WebhookTargetPolicy },
): 'invalid_format' | 'invalid_value' | null {
  if (!isWebhookUrlShaped(value)) return 'invalid_format';
  const url = new URL(value);
  // The URL parser already turned 0x7f.1 or 2130706433 into 127.0.0.1.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (options.targets === 'any') return null;
  if (isIP(host) ? !isPublicAddress(host) : isLoopbackHost(url.hostname)) return 'invalid_value';
  return url.protocol === 'https:' ? null : 'invalid_value';
}
