import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { defaultVisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { renderWithRouter } from '@/testing/render-app';
import type { PaymentMethod } from '../utils/method-display';

/** Test data and helpers of this feature's unit tests (never imported by the app). */

export const sampleCard: PaymentMethod = {
  id: 'pm-card',
  kind: 'card',
  alias: 'Mi tarjeta',
  holder: 'Laura García Martín',
  status: 'active',
  is_main: false,
  card_brand: 'VISA',
  card_masked: '454881******0004',
  card_expiry: '12/30',
  iban: null,
  nif: null,
  entity: null,
  created_at: '2026-01-15T10:00:00.000Z',
  pending_request: null,
  pending_requests: [],
};

export const sampleAccount: PaymentMethod = {
  ...sampleCard,
  id: 'pm-account',
  kind: 'bank_account',
  alias: 'Cuenta principal',
  card_brand: null,
  card_masked: null,
  card_expiry: null,
  iban: 'ES38 2100 0418 4045 0200 0514',
  nif: '12345678Z',
  entity: 'CaixaBank',
  is_main: true,
};

/** `GET /sepa-mandates` of a tenant that signs no mandates in the portal. */
export const noMandates = { creditor: null, mandates: [] };

/** `GET /sepa-mandates` of a tenant that collects by direct debit. */
export const demoCreditor = {
  name: 'Club Demo SL',
  address: 'Calle Mayor 1, 28013 Madrid',
  identifier: 'ES11ZZZB12345674',
};

export type ApiCall = { method: string; path: string; body: unknown };
export type Answer = { status?: number; json?: unknown };

/**
 * Replaces `fetch`: `answer` gets each call (method, path after `/{tenant}/api/1.0`, JSON body)
 * and says what to answer; nothing is a 404. Returns the calls, in order. `GET /sepa-mandates`
 * answers `mandates` (a tenant without mandates by default) and is not among the calls.
 */
export function stubApi(
  answer: (call: ApiCall) => Answer | undefined,
  mandates: unknown = noMandates,
): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const call = {
        method: init?.method ?? 'GET',
        path: url.pathname.replace(/^\/[^/]+\/api\/1\.0/, ''),
        body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined,
      };
      // The SEPA mandates (issue 23, item 6) are the fixture's: `mandates`, not counted in `calls`.
      const isMandates = call.method === 'GET' && call.path === '/sepa-mandates';
      if (!isMandates) calls.push(call);
      const result = isMandates
        ? { json: mandates }
        : (answer(call) ?? { status: 404, json: { code: 'not_found', message: 'x' } });
      return new Response(JSON.stringify(result.json ?? {}), {
        status: result.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

export function signIn() {
  setAuth({ accessToken: 't', user: { id: '1', code: 'C', name: 'Laura', email: 'l@x.test' } });
}

/** Renders a screen with a fresh cache (no retries), the tenant's name, in a memory router. */
export function renderScreen(ui: ReactNode, path: string) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return renderWithRouter(
    <VisualConfigContext value={{ ...defaultVisualConfig, companyName: 'Club Demo' }}>
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </VisualConfigContext>,
    { path },
  );
}
