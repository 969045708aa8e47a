import { isWebhookUrlShaped } from '@portal/contract/admin-webhooks';

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
 * or password in the URL. Answers why a URL is refused, or null.
 */
export function webhookUrlProblem(
  value: string,
  options: { production: boolean },
): 'invalid_format' | 'invalid_value' | null {
  if (!isWebhookUrlShaped(value)) return 'invalid_format';
  const url = new URL(value);
  if (url.protocol === 'https:') return null;
  return !options.production || isLoopbackHost(url.hostname) ? null : 'invalid_value';
}
