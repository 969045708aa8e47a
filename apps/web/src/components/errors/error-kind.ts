/** The three error screens of spec §2. */
export type ErrorKind = 'general' | 'notFound' | 'accessDenied';

/**
 * Spec §6: status 401/403 or "unauthorized"/"forbidden" in the error map to access denied, 404 or
 * "not found" to not found, anything else to the general error.
 */
export function errorKindOf(error: unknown): ErrorKind {
  const status =
    error && typeof error === 'object' && 'status' in error && typeof error.status === 'number'
      ? error.status
      : undefined;
  if (status === 401 || status === 403) return 'accessDenied';
  if (status === 404) return 'notFound';
  const text = (() => {
    if (error instanceof Error) return error.message;
    if (error && typeof error === 'object') {
      const { code, statusText } = error as { code?: unknown; statusText?: unknown };
      return [code, statusText].filter((v) => typeof v === 'string').join(' ');
    }
    return typeof error === 'string' ? error : '';
  })().toLowerCase();
  if (/unauthori[sz]ed|forbidden|access[ _-]denied/.test(text)) return 'accessDenied';
  if (/not[ _-]?found/.test(text)) return 'notFound';
  return 'general';
}
