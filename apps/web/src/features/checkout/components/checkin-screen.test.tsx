import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/checkout.json';
import { setAuth } from '@/lib/auth-store';
import { storageKeys } from '@/lib/storage';
import { defaultVisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { renderWithRouter } from '@/testing/render-app';
import type { SavedCard } from '../utils/checkin-form';
import { CheckinScreen } from './checkin-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const started = {
  success: true,
  payment_id: '6f1c1d2e-0000-4000-8000-000000000001',
  redsys_params: {
    Ds_SignatureVersion: 'HMAC_SHA512_V2',
    Ds_MerchantParameters: 'e30=',
    Ds_Signature: 'c2ln',
  },
  url: 'http://localhost:3180/sis/realizarPago',
  message: 'Payment started',
};

async function renderCheckin(
  path: string,
  {
    answer = () => json(200, started),
    savedCards,
    testingMode = false,
  }: { answer?: () => Response; savedCards?: SavedCard[]; testingMode?: boolean } = {},
) {
  const fetchMock = vi.fn<typeof fetch>(async (url) =>
    String(url).endsWith('/payment-methods')
      ? json(200, { methods: (savedCards ?? []).map(toMethod) })
      : answer(),
  );
  vi.stubGlobal('fetch', fetchMock);
  const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrap = (ui: ReactNode) => (
    <VisualConfigContext value={{ ...defaultVisualConfig, testingMode }}>
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </VisualConfigContext>
  );
  await renderWithRouter(wrap(<CheckinScreen />), { path });
  // Only the calls the payment made: the list of saved cards is read on every visit.
  const initCalls = () =>
    fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/redsys/init-payment'));
  return { fetchMock, initCalls, submit, user: userEvent.setup() };
}

/** Generous: the whole suite runs in parallel on a busy machine. */
const slow = { timeout: 5000 };

/** A saved card as GET /payment-methods lists it. */
const toMethod = (card: SavedCard) => ({
  id: card.id,
  kind: 'card',
  alias: card.name,
  holder: 'Laura García Martín',
  status: 'active',
  is_main: false,
  card_brand: card.type,
  card_masked: `454881******${card.last4}`,
  card_expiry: '12/99',
  iban: null,
  nif: null,
  entity: null,
  created_at: '2025-01-01T00:00:00.000Z',
  pending_request: null,
});

const accept = () => screen.getByRole('button', { name: es.checkin.accept });

beforeEach(() => {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'LE-1', name: 'Laura', email: 'cliente@demo.test' },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  document.body.replaceChildren();
});

describe('payment confirmation (spec §2, §4 "Card payment")', () => {
  it('summarises the invoice, the date and time and the total in euros', async () => {
    await renderCheckin('/payment-checkin?invoiceId=F2025-00012&amount=1234.5');
    expect(screen.getByRole('heading', { level: 1, name: es.checkin.title })).toBeDefined();
    const summary = screen.getByRole('region', { name: es.checkin.summary.title });
    expect(within(summary).getByText('F2025-00012')).toBeDefined();
    expect(within(summary).getByText(/^\d\d\/\d\d\/\d{4} \d\d:\d\d h$/)).toBeDefined();
    expect(within(summary).getByText('1234,50 €')).toBeDefined();
    expect(screen.getByRole('link', { name: es.checkin.backToInvoice }).getAttribute('href')).toBe(
      '/invoice-detail/F2025-00012',
    );
  });

  it('keeps "Aceptar y continuar" disabled until a method is chosen and the conditions accepted', async () => {
    const { user } = await renderCheckin('/payment-checkin?invoiceId=F1&amount=45.00');
    expect(accept()).toHaveProperty('disabled', true);
    expect(screen.getByText(es.checkin.acceptHint)).toBeDefined();
    // PayPal is shown but the tenant does not take it.
    expect(screen.getByRole('radio', { name: /PayPal/ })).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('radio', { name: new RegExp(es.checkin.method.creditCard) }));
    expect(accept()).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('checkbox', { name: es.checkin.conditions.accept }));
    expect(accept()).toHaveProperty('disabled', false);
    expect(screen.queryByText(es.checkin.acceptHint)).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: es.checkin.conditions.accept }));
    expect(accept()).toHaveProperty('disabled', true);
  });

  it('starts the payment and posts the signed form to the gateway', async () => {
    const { user, initCalls, submit } = await renderCheckin(
      '/payment-checkin?invoiceId=F1&amount=45.00',
    );
    await user.click(screen.getByRole('radio', { name: new RegExp(es.checkin.method.creditCard) }));
    await user.click(screen.getByRole('checkbox', { name: new RegExp(es.checkin.card.saveCard) }));
    await user.click(screen.getByRole('checkbox', { name: es.checkin.conditions.accept }));
    await user.click(accept());

    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1), slow);
    const [url, init] = initCalls()[0] ?? [];
    expect(String(url)).toMatch(/\/api\/1\.0\/redsys\/init-payment$/);
    expect(JSON.parse(String(init?.body))).toEqual({
      amount: 45,
      currency: 'EUR',
      language: 'es',
      invoice_id: 'F1',
      save_card: true,
    });
    // The form that was submitted (it leaves the page 100 ms later).
    const form = submit.mock.contexts[0] as HTMLFormElement | undefined;
    expect(form?.action).toBe('http://localhost:3180/sis/realizarPago');
    expect(form?.querySelectorAll('input[type="hidden"]')).toHaveLength(3);
    // Spec §3 "Storage", and the attempt for the result screen.
    expect(sessionStorage.getItem('currentPaymentInvoice')).toBe('F1');
    expect(sessionStorage.getItem('currentPaymentAmount')).toBe('45.00');
    expect(sessionStorage.getItem('saveNewCard')).toBe('true');
    expect(sessionStorage.getItem('currentPaymentId')).toBe(started.payment_id);
    // The button keeps loading while the browser leaves.
    expect(screen.getByRole('button', { name: es.checkin.redirecting })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('pays a selection of instalments, and asks the simulator to decline with the testing toggle', async () => {
    localStorage.setItem(storageKeys.testingPaymentFails, 'true');
    const { user, initCalls } = await renderCheckin(
      '/payment-checkin?payments=p1,p2,p3&amount=90',
      {
        testingMode: true,
      },
    );
    const summary = screen.getByRole('region', { name: es.checkin.summary.title });
    expect(within(summary).getByText(es.checkin.summary.instalments)).toBeDefined();
    expect(within(summary).getByText('3')).toBeDefined();
    expect(screen.getByRole('link', { name: es.checkin.backToPayments }).getAttribute('href')).toBe(
      '/mis-pagos',
    );
    await user.click(screen.getByRole('radio', { name: new RegExp(es.checkin.method.creditCard) }));
    await user.click(screen.getByRole('checkbox', { name: es.checkin.conditions.accept }));
    await user.click(accept());
    await waitFor(() => expect(initCalls()).toHaveLength(1), slow);
    expect(JSON.parse(String(initCalls()[0]?.[1]?.body))).toMatchObject({
      payment_ids: ['p1', 'p2', 'p3'],
      is_multiple_payment: true,
      simulate_decline: true,
    });
  });

  it('shows why the payment could not start, and lets the customer try again', async () => {
    const { user } = await renderCheckin('/payment-checkin?invoiceId=F1&amount=45.00', {
      answer: () => json(409, { message: 'in progress', code: 'payment_in_progress' }),
    });
    await user.click(screen.getByRole('radio', { name: new RegExp(es.checkin.method.creditCard) }));
    await user.click(screen.getByRole('checkbox', { name: es.checkin.conditions.accept }));
    await user.click(accept());
    const alert = await screen.findByRole('alert', {}, slow);
    expect(alert.textContent).toContain(es.errors.initFailed);
    expect(alert.textContent).toContain(es.errors.details.inProgress);
    expect(accept()).toHaveProperty('disabled', false);
  });

  it('names a changed amount "Importe inválido" and leads back to the invoice', async () => {
    const { user } = await renderCheckin('/payment-checkin?invoiceId=F1&amount=45.00', {
      answer: () =>
        json(422, {
          message: 'Invalid',
          code: 'validation_failed',
          errors: { amount: ['amount_mismatch'] },
        }),
    });
    await user.click(screen.getByRole('radio', { name: new RegExp(es.checkin.method.creditCard) }));
    await user.click(screen.getByRole('checkbox', { name: es.checkin.conditions.accept }));
    await user.click(accept());
    const alert = await screen.findByRole('alert', {}, slow);
    expect(alert.textContent).toContain(es.errors.invalidAmount);
    expect(within(alert).getByRole('link').getAttribute('href')).toBe('/invoice-detail/F1');
  });

  it('without an invoice or a valid amount, says so and offers no form', async () => {
    const { initCalls } = await renderCheckin('/payment-checkin');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(es.errors.invalidAmount);
    expect(alert.textContent).toContain(es.errors.missingInvoice);
    expect(screen.queryByRole('button', { name: es.checkin.accept })).toBeNull();
    expect(initCalls()).toHaveLength(0);
  });

  it('with saved cards, offers the tabs; the saved tab needs a card', async () => {
    const { user, initCalls } = await renderCheckin('/payment-checkin?invoiceId=F1&amount=45', {
      savedCards: [{ id: 'pm-1', name: 'Mi tarjeta', last4: '0004', type: 'VISA' }],
    });
    await user.click(screen.getByRole('radio', { name: new RegExp(es.checkin.method.creditCard) }));
    await user.click(screen.getByRole('checkbox', { name: es.checkin.conditions.accept }));
    const newTab = await screen.findByRole('tab', { name: es.checkin.card.newCard }, slow);
    expect(newTab.getAttribute('aria-selected')).toBe('true');
    expect(accept()).toHaveProperty('disabled', false);

    newTab.focus();
    await user.keyboard('{ArrowRight}');
    const savedTab = screen.getByRole('tab', { name: es.checkin.card.savedCards });
    expect(savedTab.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(savedTab);
    expect(accept()).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('radio', { name: /Mi tarjeta ···· 0004/ }));
    expect(accept()).toHaveProperty('disabled', false);
    await user.click(accept());
    await waitFor(() => expect(initCalls()).toHaveLength(1), slow);
    expect(JSON.parse(String(initCalls()[0]?.[1]?.body))).toMatchObject({
      card_id: 'pm-1',
    });
  });

  it('shows no saved-cards tab when there are no saved cards', async () => {
    const { user } = await renderCheckin('/payment-checkin?invoiceId=F1&amount=45');
    await user.click(screen.getByRole('radio', { name: new RegExp(es.checkin.method.creditCard) }));
    expect(screen.queryByRole('tab')).toBeNull();
    expect(
      screen.getByRole('checkbox', { name: new RegExp(es.checkin.card.saveCard) }),
    ).toBeDefined();
  });
});
