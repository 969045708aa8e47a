import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, vi } from 'vitest';
import { CheckinScreen } from '@/features/checkout/components/checkin-screen';
import type { SavedCard } from '@/features/checkout/utils/checkin-form';
import { setAuth } from '@/lib/auth-store';
import es from '@/locales/es/checkout.json';
import { mockApi, renderWithQuery } from './mock-api';

/** One instalment as `/redsys/checkout-preview` lists it. */
export type PreviewInstalment = {
  payment_id: string;
  invoice_id: string;
  seq: number;
  due_date: string;
  amount: number;
  overdue: boolean;
  status: 'pending' | 'overdue' | 'returned';
};

/** What `/redsys/checkout-preview` answers. */
export type CheckoutPreview = {
  amount: number;
  currency: 'EUR';
  instalments: PreviewInstalment[];
  methods: ('credit_card' | 'paypal' | 'bizum')[];
  date: string;
  time: string;
};

/** An instalment of the preview: p1, the first of F2025-00083, overdue, 264,99 €, unless told. */
export const previewInstalment = (fields: Partial<PreviewInstalment> = {}): PreviewInstalment => ({
  payment_id: 'p1',
  invoice_id: 'F2025-00083',
  seq: 1,
  due_date: '20251005',
  amount: 264.99,
  overdue: true,
  status: 'overdue',
  ...fields,
});

/**
 * The preview of these instalments (by default the one of `previewInstalment()`): their sum, by
 * card only, at 12:36 on 21/11/2026 (the server's Madrid time), unless told otherwise.
 */
export function checkoutPreview(
  instalments: PreviewInstalment[] = [previewInstalment()],
  fields: Partial<CheckoutPreview> = {},
): CheckoutPreview {
  const cents = instalments.reduce(
    (sum, instalment) => sum + Math.round(instalment.amount * 100),
    0,
  );
  return {
    amount: cents / 100,
    currency: 'EUR',
    instalments,
    methods: ['credit_card'],
    date: '2026-11-21',
    time: '12:36',
    ...fields,
  };
}

/** What `/redsys/init-payment` answers to a started card payment: the signed form for Redsys. */
export const startedPayment = {
  success: true,
  payment_id: '6f1c1d2e-0000-4000-8000-000000000001',
  redsys_params: {
    Ds_SignatureVersion: 'HMAC_SHA512_V2',
    Ds_MerchantParameters: 'e30=',
    Ds_Signature: 'c2ln',
  },
  order_id: '2611Ab3dEf9h',
  url: 'http://localhost:3180/sis/realizarPago',
  message: 'Payment started',
};

/** A saved card as GET /payment-methods lists it. */
export const savedCardMethod = (card: SavedCard) => ({
  id: card.id,
  kind: 'card',
  alias: card.name,
  holder: 'Laura García Martín',
  status: 'active',
  is_main: card.isMain,
  card_brand: card.type,
  card_masked: `454881******${card.last4}`,
  card_expiry: '12/99',
  iban: null,
  nif: null,
  entity: null,
  created_at: '2025-01-01T00:00:00.000Z',
  pending_request: null,
  pending_requests: [],
});

/** The customer's main saved card, "Principal •••• 1111". */
export const mainSavedCard: SavedCard = {
  id: 'pm-9',
  name: 'Principal',
  last4: '1111',
  type: 'VISA',
  isMain: true,
};

/** Signs the demo customer in (Laura, LE-1). */
export function signInCustomer(): void {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'LE-1', name: 'Laura', email: 'cliente@demo.test' },
  });
}

/**
 * For a file of tests on the confirmation: before each, the customer signed in and the gateway
 * form's `submit` stubbed (and `console.error` silenced when `quiet`); after each, the stubs and
 * spies undone, the session storage and the page emptied.
 */
export function setUpCheckinTests({ quiet = false }: { quiet?: boolean } = {}): void {
  beforeEach(() => {
    signInCustomer();
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    if (quiet) vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    sessionStorage.clear();
    document.body.replaceChildren();
  });
}

/**
 * Renders the confirmation at `path` on a mocked API (see `mockApi`): no saved cards and a started
 * payment unless `handlers` say otherwise. Returns the calls made and a user to act with.
 */
export async function renderCheckinScreen(
  path: string,
  handlers: Parameters<typeof mockApi>[0] = {},
) {
  const calls = mockApi({
    '/payment-methods': () => ({ json: { methods: [], room_for_another: true } }),
    '/redsys/init-payment': () => ({ json: startedPayment }),
    ...handlers,
  });
  await renderWithQuery(<CheckinScreen />, { path });
  return { calls, user: userEvent.setup() };
}

/** Generous: the whole suite runs in parallel on a busy machine. */
export const slow = { timeout: 5000 };

/** "Aceptar y continuar" (PRODUCT.md), with the server's amount beside it. */
export const acceptButton = () =>
  screen.getByRole('button', { name: new RegExp(`^${es.checkin.accept}`) }) as HTMLButtonElement;

/** The box that accepts the conditions (which name the amount). */
export const conditionsBox = () =>
  screen.getByRole('checkbox', { name: es.checkin.conditions.accept }) as HTMLInputElement;
