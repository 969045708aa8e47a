/**
 * Where a notification's "Acceder" may lead (issue 20): the one predicate the ingestion API checks
 * a link with and the web app checks it again with before rendering (a link stored earlier, or
 * written to the database some other way, gets no second chance). Free of zod: the browser imports
 * it.
 *
 * Accepted: a page of the portal a customer may be sent to (`linkableAppPaths`), with an optional
 * query string and fragment; or an absolute `https://` address with a host and no credentials.
 * Refused: everything else, and in particular protocol-relative `//host`, `/\host` and `/\t/host`
 * (browsers drop tabs and new lines and read `\` as `/`), `javascript:`, `data:`, `vbscript:`,
 * plain `http:`, any scheme in another case, and any whitespace, control character, backslash or
 * broken character anywhere in the link.
 */

import { appPathPattern, type TAppPathName } from './app-paths.ts';

/**
 * The web app's pages a notification may open (spec §2 route table, ./app-paths.ts; apps/web checks
 * every one is a route). Not sign-in, password reset or sign-in callbacks: a link carrying someone
 * else's reset token or provider code would be a trap, not a notification.
 */
export const linkableAppPaths: readonly string[] = (
  [
    'home',
    'myActivity',
    'userProfile',
    'invoices',
    'invoicesAlias',
    'invoiceDetail',
    'payments',
    'paymentsAlias',
    'paymentCheckin',
    'paymentMethods',
    'addBankAccount',
    'addCard',
    'addBankTransfer',
    'bankAccount',
    'creditCard',
    'bankData',
    'notifications',
    'contact',
    'privacy',
    'security',
    'cookies',
    'accessibility',
    'invoiceThreads',
    'invoiceThread',
  ] as const satisfies readonly TAppPathName[]
).map(appPathPattern);

export const notificationLinkMaxLength = 500;

export type TNotificationLink = { kind: 'app'; path: string } | { kind: 'external'; href: string };

/** Whitespace of any kind, controls (C0, DEL, C1), backslash, and surrogates not in a pair. */
const forbidden =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\s\u0000-\u001F\u007F-\u009F\u200B-\u200F\u2028-\u202E\u2060\uFEFF\\]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function matchesAppPath(path: string): boolean {
  const segments = path.split('/').slice(1).map(decodeSegment);
  if (segments.some((s) => s === undefined || s === '' || s === '.' || s === '..')) return false;
  return linkableAppPaths.some((pattern) => {
    const parts = pattern.split('/').slice(1);
    return (
      parts.length === segments.length &&
      parts.every((part, i) => part.startsWith(':') || part === segments[i]?.normalize('NFC'))
    );
  });
}

/** What a notification's link is, or null when it must not be followed (see above). */
export function parseNotificationLink(value: string | null | undefined): TNotificationLink | null {
  if (!value || value.length > notificationLinkMaxLength || forbidden.test(value)) return null;
  if (value.startsWith('/')) {
    if (value.startsWith('//')) return null;
    const path = value.split(/[?#]/, 1)[0] ?? '';
    return matchesAppPath(path) ? { kind: 'app', path: value } : null;
  }
  const href = httpsHref(value);
  return href === null ? null : { kind: 'external', href };
}

/** An absolute `https://` address with a host and no credentials, normalised; null otherwise. */
function httpsHref(value: string): string | null {
  // Exactly `https://`, lower case: `HTTPS:`, `JavaScript:` and friends are refused by the same rule.
  if (!value.startsWith('https://') || !URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== 'https:' || !url.hostname || url.username || url.password) return null;
  return url.href;
}

export const websiteMaxLength = 200;

/**
 * The organisation's website as a link may point to it (the company dialog, the contact page):
 * an `https://` address under the same rules as a notification's external link, or null. The admin
 * CLI stores only such an address; the web app checks it again before rendering it.
 */
export function parseWebsite(value: string | null | undefined): string | null {
  if (!value || value.length > websiteMaxLength || forbidden.test(value)) return null;
  return httpsHref(value);
}

/**
 * A telephone number as people write it (`+34 910 000 000`, `(91) 000-00-00`): digits with an
 * optional leading `+`, spaces, dots, dashes and brackets, 6 to 20 digits. Its `tel:` link keeps
 * only the `+` and the digits.
 */
export const phoneMaxLength = 40;
const phonePattern = /^\+?[0-9 ().-]+$/;

export function phoneHref(value: string | null | undefined): string | null {
  const phone = value?.trim();
  if (!phone || phone.length > phoneMaxLength || !phonePattern.test(phone)) return null;
  const digits = phone.replace(/[^0-9]/g, '');
  if (digits.length < 6 || digits.length > 20) return null;
  return `tel:${phone.startsWith('+') ? '+' : ''}${digits}`;
}

export const isNotificationLink = (value: string | null | undefined): boolean =>
  parseNotificationLink(value) !== null;
