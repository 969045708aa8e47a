import { apiPrefix } from '@portal/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { persistentSessionDays } from './service.ts';
import { newOpaqueToken } from './tokens.ts';

export const refreshCookie = 'refresh_token';
export const xsrfCookie = 'XSRF-TOKEN';
export const xsrfHeader = 'x-xsrf-token';
export const deviceCookie = 'device_id';
/** A browser keeps its device cookie as long as browsers allow (400 days). */
const deviceCookieDays = 400;

/**
 * The refresh token: httpOnly (no script reads it), SameSite=Strict (no other site sends it), scoped
 * to this tenant's API path, Secure over TLS. Remember-me makes it persistent (30 days); otherwise
 * it is a browser-session cookie. The XSRF cookie is readable by the app, which echoes it.
 */
export function setSessionCookies(
  reply: FastifyReply,
  request: FastifyRequest,
  session: { refreshToken: string; persistent: boolean },
  xsrfValue: string,
  secure: boolean,
): void {
  const maxAge = session.persistent ? persistentSessionDays * 86_400 : undefined;
  void reply.setCookie(refreshCookie, session.refreshToken, {
    path: apiPath(request),
    httpOnly: true,
    sameSite: 'strict',
    secure,
    ...(maxAge ? { maxAge } : {}),
  });
  void reply.setCookie(xsrfCookie, xsrfValue, {
    path: '/',
    httpOnly: false,
    sameSite: 'strict',
    secure,
    ...(maxAge ? { maxAge } : {}),
  });
}

export function clearSessionCookies(
  reply: FastifyReply,
  request: FastifyRequest,
  secure: boolean,
): void {
  void reply.clearCookie(refreshCookie, {
    path: apiPath(request),
    httpOnly: true,
    sameSite: 'strict',
    secure,
  });
  void reply.clearCookie(xsrfCookie, { path: '/', sameSite: 'strict', secure });
}

const apiPath = (request: FastifyRequest) => apiPrefix(request.tenant.id);

/**
 * The browser's device id: a random value in its own cookie (httpOnly, SameSite=Strict, this
 * tenant's API path), set at its first successful sign-in. It grants nothing; the server keeps
 * its hash to tell a browser the customer used before from a new one ("was this you?").
 */
export function deviceIdOf(request: FastifyRequest): string {
  const known = request.cookies[deviceCookie];
  return known && /^[\w-]{43}$/.test(known) ? known : newOpaqueToken();
}

/** Keeps the device id in the browser, when it did not send that one already. */
export function rememberDevice(
  reply: FastifyReply,
  request: FastifyRequest,
  deviceId: string,
  secure: boolean,
): void {
  if (request.cookies[deviceCookie] === deviceId) return;
  void reply.setCookie(deviceCookie, deviceId, {
    path: apiPath(request),
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: deviceCookieDays * 86_400,
  });
}
