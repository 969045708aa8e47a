import type { TCustomerSession } from '@portal/contract';

/** What the list and its buttons call a session: "Chrome 131 · Windows 10", or nothing known. */
export function deviceName(
  session: Pick<TCustomerSession, 'browser' | 'os'>,
  unknown: string,
): string {
  return [session.browser, session.os].filter(Boolean).join(' · ') || unknown;
}
