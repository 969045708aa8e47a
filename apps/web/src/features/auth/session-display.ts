import type { TCustomerSession } from '@portal/contract';

/** What the list and its buttons call a session: "Chrome 131 · Windows 10", or nothing known. */
export function deviceName(
  session: Pick<TCustomerSession, 'browser' | 'os'>,
  unknown: string,
): string {
  return [session.browser, session.os].filter(Boolean).join(' · ') || unknown;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A moment as the reader reads it in their language, on the organisation's clock (Europe/Madrid,
 * PRODUCT.md), e.g. "26 nov 2026, 7:05".
 */
export function formatMoment(iso: string, language: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  let format = formatters.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(`${language}-ES`, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Europe/Madrid',
    });
    formatters.set(language, format);
  }
  return format.format(at);
}
