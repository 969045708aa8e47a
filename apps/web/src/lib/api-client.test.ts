import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client';
import { setAuth } from './auth-store';

function mockFetch(status: number, body: unknown) {
  const fetchMock = vi.fn<typeof fetch>(async () =>
    Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('apiRequest', () => {
  it('calls /{tenant}/api/1.0 with JSON and credentials', async () => {
    const fetchMock = mockFetch(200, { company_name: 'Club' });
    const answer = await apiRequest('visualConfig');
    expect(answer.company_name).toBe('Club');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/1/api/1.0/visual-config');
    expect(init?.method).toBe('GET');
    expect(init?.credentials).toBe('include');
    expect(new Headers(init?.headers).get('Authorization')).toBeNull();
  });

  it('sends the stored access token on bearer routes and fills path parameters', async () => {
    setAuth({ accessToken: 'tok', user: { id: '7', code: 'C7', name: 'Ana', email: 'a@b.es' } });
    const fetchMock = mockFetch(200, {});
    await apiRequest('userProfile', { params: { id: 'C 7' } });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/1/api/1.0/user/profile/C%207');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok');
  });

  it('sends the XSRF-TOKEN cookie as X-XSRF-TOKEN on cookie routes', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D; path=/';
    const fetchMock = mockFetch(200, { message: 'ok' });
    await apiRequest('logout');
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('X-XSRF-TOKEN')).toBe('abc=');
  });

  it('sends the body as JSON', async () => {
    const fetchMock = mockFetch(202, { message: 'ok' });
    await apiRequest('forgotPassword', { body: { email: 'a@b.es' } });
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(init?.body).toBe('{"email":"a@b.es"}');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('rejects with a typed ApiError carrying the code and the field errors of a 422', async () => {
    mockFetch(422, {
      message: 'Invalid',
      code: 'validation_failed',
      errors: { email: ['invalid_email'] },
    });
    const error = await apiRequest('forgotPassword', { body: { email: 'x' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_failed',
      errors: { email: ['invalid_email'] },
    });
  });

  it('derives the code from the status when the body is not JSON, and reports network failures', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.resolve(new Response('oops', { status: 503 }))),
    );
    await expect(apiRequest('visualConfig')).rejects.toMatchObject({
      status: 503,
      code: 'service_unavailable',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('visualConfig')).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
    });
  });
});
