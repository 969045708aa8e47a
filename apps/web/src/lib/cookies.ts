/** Value of a cookie readable by scripts (the XSRF-TOKEN double-submit cookie). */
export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** Cookie the API sets at sign-in and the app echoes as `X-XSRF-TOKEN` on cookie calls (spec §7). */
export const xsrfCookie = 'XSRF-TOKEN';
export const xsrfHeader = 'X-XSRF-TOKEN';
