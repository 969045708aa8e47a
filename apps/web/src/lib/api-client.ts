import type { z } from 'zod';
import type { TErrorCode } from '@portal/contract/errors';
import { routePaths, type TRouteName } from '@portal/contract/paths';
import type { TRoutes } from '@portal/contract/routes';
import { getAccessToken } from './auth-store';
import { readCookie, xsrfCookie, xsrfHeader } from './cookies';
import { endSession, refreshAccessToken } from './session';
import { getApiBase } from './tenant';

export { readCookie };

/** Codes the client adds to the API's own: the request never got an answer, or an unreadable one. */
export type ClientErrorCode = 'network_error' | 'invalid_response';

/**
 * Every failed call rejects with this: the HTTP status (0 when there was no answer), the API's error
 * code, and for a 422 the codes of each invalid field. The app translates codes, never `message`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: TErrorCode | ClientErrorCode;
  readonly errors?: Record<string, string[]>;
  /** A 429's `Retry-After`, in seconds, when the server sent one. */
  retryAfterSeconds?: number;

  constructor(
    status: number,
    code: TErrorCode | ClientErrorCode,
    errors?: Record<string, string[]>,
    message = `API error ${status} ${code}`,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    if (errors) this.errors = errors;
  }
}

type Input<R, K extends 'body' | 'params'> =
  R extends Record<K, infer S extends z.ZodType> ? z.input<S> : never;

export type ApiResponse<N extends TRouteName> = z.output<TRoutes[N]['response']>;

export type ApiRequestOptions<N extends TRouteName> = {
  signal?: AbortSignal;
} & ([Input<TRoutes[N], 'body'>] extends [never]
  ? { body?: never }
  : { body: Input<TRoutes[N], 'body'> }) &
  ([Input<TRoutes[N], 'params'>] extends [never]
    ? { params?: never }
    : { params: Input<TRoutes[N], 'params'> });

type OptionsArg<N extends TRouteName> = [
  Input<TRoutes[N], 'body'> | Input<TRoutes[N], 'params'>,
] extends [never]
  ? [options?: ApiRequestOptions<N>]
  : [options: ApiRequestOptions<N>];

const statusCodes: Record<number, TErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** `Retry-After` in seconds: a number of seconds or an HTTP date (RFC 9110). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

function buildPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_, key: string) =>
    encodeURIComponent(String(params?.[key] ?? '')),
  );
}

async function toApiError(response: Response): Promise<ApiError> {
  const fallback =
    statusCodes[response.status] ?? (response.status >= 500 ? 'internal_error' : 'bad_request');
  let error: ApiError;
  try {
    const body = (await response.json()) as { code?: unknown; message?: unknown; errors?: unknown };
    const code = typeof body.code === 'string' ? (body.code as TErrorCode) : fallback;
    const errors =
      body.errors && typeof body.errors === 'object'
        ? (body.errors as Record<string, string[]>)
        : undefined;
    error = new ApiError(
      response.status,
      code,
      errors,
      typeof body.message === 'string' ? body.message : undefined,
    );
  } catch {
    error = new ApiError(response.status, fallback);
  }
  const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
  if (retryAfter !== undefined) error.retryAfterSeconds = retryAfter;
  return error;
}

/**
 * Calls one route of the contract under `/{tenant}/api/1.0`: JSON in and out, cookies included, the
 * bearer token on `bearer` routes and the XSRF header on `cookie` routes (spec §7). Answers are
 * trusted to match the contract (the server serializes through the same schemas) rather than
 * parsed again, which keeps zod's parser out of the browser bundle.
 *
 * On `bearer` routes it also keeps the session of spec §4: a 403 `token_expired` refreshes the
 * access token once (shared with any other caller at the same time) and retries the request once;
 * a 401, or a refresh the server refuses, ends the session (auth cleared, the app goes to /login).
 */
export async function apiRequest<N extends TRouteName>(
  name: N,
  ...[options]: OptionsArg<N>
): Promise<ApiResponse<N>> {
  const route = routePaths[name];
  const opts = options as
    { body?: unknown; params?: Record<string, unknown>; signal?: AbortSignal } | undefined;

  const send = async (token: string | undefined): Promise<Response> => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (opts?.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    if (route.auth === 'cookie') {
      const xsrf = readCookie(xsrfCookie);
      if (xsrf) headers[xsrfHeader] = xsrf;
    }
    try {
      return await fetch(`${getApiBase()}${buildPath(route.path, opts?.params)}`, {
        method: route.method,
        headers,
        credentials: 'include',
        ...(opts?.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
        ...(opts?.signal ? { signal: opts.signal } : {}),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'network_error');
    }
  };

  const token = route.auth === 'bearer' ? getAccessToken() : undefined;
  let response = await send(token);

  if (route.auth === 'bearer' && response.status === 403) {
    const error = await toApiError(response);
    if (error.code !== 'token_expired') throw error;
    const refreshed = await refreshAccessToken(token);
    if (!refreshed.ok) {
      if (refreshed.reason === 'rejected') {
        endSession();
        throw error;
      }
      throw new ApiError(0, 'network_error');
    }
    opts?.signal?.throwIfAborted();
    response = await send(refreshed.accessToken);
  }
  if (route.auth === 'bearer' && response.status === 401) {
    endSession();
  }

  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as ApiResponse<N>;
  try {
    return (await response.json()) as ApiResponse<N>;
  } catch {
    throw new ApiError(response.status, 'invalid_response');
  }
}
