import { apiPrefix } from '@portal/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { persistentSessionDays } from './service.ts';

export const refreshCookie = 'refresh_token';
export const xsrfCookie = 'XSRF-TOKEN';
export const xsrfHeader = 'x-xsrf-token';

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
