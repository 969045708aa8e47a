import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { renderWithRouter } from './render-app';

export type MockAnswer = { status?: number; json?: unknown };
type Handler = (body: Record<string, unknown>) => MockAnswer | Promise<MockAnswer>;
export type ApiCall = { path: string; body: Record<string, unknown> };

/**
 * Replaces `fetch` with handlers per API path (after `/{tenant}/api/1.0`); unknown paths answer
 * 404. Returns the calls made, in order, with their JSON bodies.
 */
export function mockApi(handlers: Record<string, Handler>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname.replace(/^\/[^/]+\/api\/1\.0/, '');
      const body = (init?.body ? JSON.parse(String(init.body)) : {}) as Record<string, unknown>;
      calls.push({ path, body });
      const handler = handlers[path];
      const answer = handler ? await handler(body) : { status: 404, json: { code: 'not_found' } };
      return new Response(JSON.stringify(answer.json ?? {}), {
        status: answer.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

/** Renders a screen with a fresh react-query cache (no retries) inside a memory router. */
export function renderWithQuery(
  ui: ReactNode,
  options: { path?: string; language?: 'es' | 'ca' | 'en' | 'eu' } = {},
) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return renderWithRouter(<QueryClientProvider client={client}>{ui}</QueryClientProvider>, options);
}
