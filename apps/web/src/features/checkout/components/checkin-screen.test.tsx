import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/checkout.json';
import { storageKeys } from '@/lib/storage';
import { defaultVisualConfig, VisualConfigContext } from '@/lib/visual-config';
import {
  acceptButton,
  checkoutPreview,
  conditionsBox,
  mainSavedCard,
  previewInstalment,
  savedCardMethod,
  signInCustomer,
  slow,
  startedPayment,
} from '@/testing/checkout';
import { renderWithRouter } from '@/testing/render-app';
import type { SavedCard } from '../utils/checkin-form';
import { CheckinScreen } from './checkin-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** What the server says F2025-00083 owes: two instalments, one overdue. */
const owed = checkoutPreview([
  previewInstalment({ amount: 132.5 }),
  previewInstalment({
    payment_id: 'p2',
    seq: 2,
    due_date: '20261205',
    amount: 132.49,
    overdue: false,
    status: 'pending',
  }),
]);

async function renderCheckin(
  path: string,
  {
    answer = () => json(200, startedPayment),
    preview = () => json(200, owed),
    savedCards,
    roomForAnother = true,
    testingMode = false,
  }: {
    answer?: () => Response;
    preview?: () => Response;
    savedCards?: SavedCard[];
    roomForAnother?: boolean;
    testingMode?: boolean;
  } = {},
) {
  const fetchMock = vi.fn<typeof fetch>(async (url) => {
    const at = String(url);
    if (at.endsWith('/payment-methods'))
      return json(200, {
        methods: (savedCards ?? []).map(savedCardMethod),
        room_for_another: roomForAnother,
      });
    if (at.endsWith('/redsys/checkout-preview')) return preview();
    return answer();
  });
  vi.stubGlobal('fetch', fetchMock);
  const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrap = (ui: ReactNode) => (
    <VisualConfigContext value={{ ...defaultVisualConfig, testingMode }}>
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </VisualConfigContext>
  );
  await renderWithRouter(wrap(<CheckinScreen />), { path });
  const callsTo = (end: string) =>
    fetchMock.mock.calls.filter(([url]) => String(url).endsWith(end));
  // Only the calls the payment made: the list of saved cards is read on every visit.
  const initCalls = () => callsTo('/redsys/init-payment');
  const previewCalls = () => callsTo('/redsys/checkout-preview');
  return { fetchMock, initCalls, previewCalls, submit, user: userEvent.setup() };
}

const other: SavedCard = {
  id: 'pm-1',
  name: 'Mi tarjeta',
  last4: '0004',
  type: 'VISA',
  isMain: false,
};

beforeEach(signInCustomer);
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
  document.body.replaceChildren();
});

describe('payment confirmation (spec §2, §4 "Card payment", review #5 #7 #8)', () => {
  it("shows the server's amount and instalments, never the address's amount", async () => {
    const { previewCalls } = await renderCheckin(
      '/payment-checkin?invoiceId=F2025-00083&amount=1.00',
    );
    const summary = await screen.findByRole('region', { name: es.checkin.summary.title }, slow);
    expect(JSON.parse(String(previewCalls()[0]?.[1]?.body))).toEqual({
      invoice_id: 'F2025-00083',
    });
    expect(within(summary).getByText('264,99 €')).toBeDefined();
    expect(document.body.textContent).not.toContain('1,00 €');
    // Each instalment: invoice, which instalment, due date (overdue marked), amount.
    const items = within(summary).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain('F2025-00083');
    expect(items[0]?.textContent).toContain('Plazo 1');
    expect(items[0]?.textContent).toContain('Vence el 05/10/2025');
    expect(within(items[0] as HTMLElement).getByText(es.checkin.summary.overdue)).toBeDefined();
    expect(items[1]?.textContent).toMatch(/132,49\s€/);
    expect(within(items[1] as HTMLElement).queryByText(es.checkin.summary.overdue)).toBeNull();
    expect(within(items[0] as HTMLElement).queryByText(es.checkin.summary.returned)).toBeNull();
    // The server's Madrid time, not the browser's clock.
    expect(within(summary).getByText('21/11/2026 12:36 h')).toBeDefined();
    expect(
      screen.getByText(es.checkin.conditions.text.replace('{{amount}}', '264,99 €')),
    ).toBeDefined();
    expect(acceptButton().textContent).toMatch(/264,99\s€/);
    expect(screen.getByRole('link', { name: es.checkin.backToInvoice }).getAttribute('href')).toBe(
      '/invoice-detail/F2025-00083',
    );
  });

  it('opens with the card and the main saved card chosen: only the conditions are left', async () => {
    const { user, initCalls } = await renderCheckin(
      '/payment-checkin?invoiceId=F2025-00083&amount=1.00',
      { savedCards: [other, mainSavedCard] },
    );
    const card = await screen.findByRole(
      'radio',
      { name: new RegExp(es.checkin.method.creditCard) },
      slow,
    );
    expect(card).toHaveProperty('checked', true);
    // The tenant takes no PayPal: it is not offered at all.
    expect(screen.queryByRole('radio', { name: /PayPal/ })).toBeNull();
    const savedTab = await screen.findByRole('tab', { name: es.checkin.card.savedCards }, slow);
    expect(savedTab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('radio', { name: /Principal •••• 1111/ })).toHaveProperty(
      'checked',
      true,
    );
    expect(acceptButton()).toHaveProperty('disabled', true);
    expect(screen.getByText(es.checkin.acceptConditionsHint)).toBeDefined();
    await user.click(conditionsBox());
    expect(acceptButton()).toHaveProperty('disabled', false);
    await user.click(acceptButton());
    await waitFor(() => expect(initCalls()).toHaveLength(1), slow);
    expect(JSON.parse(String(initCalls()[0]?.[1]?.body))).toEqual({
      amount: 264.99,
      currency: 'EUR',
      language: 'es',
      invoice_id: 'F2025-00083',
      card_id: 'pm-9',
    });
  });

  it('lets the customer pick another saved card or a new one', async () => {
    const { user, initCalls } = await renderCheckin('/payment-checkin?invoiceId=F1', {
      savedCards: [other, mainSavedCard],
    });
    await user.click(await screen.findByRole('radio', { name: /Mi tarjeta •••• 0004/ }, slow));
    const savedTab = screen.getByRole('tab', { name: es.checkin.card.savedCards });
    savedTab.focus();
    await user.keyboard('{ArrowLeft}');
    const newTab = screen.getByRole('tab', { name: es.checkin.card.newCard });
    expect(newTab.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(newTab);
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: /Mi tarjeta •••• 0004/ })).toHaveProperty(
      'checked',
      true,
    );
    await user.click(conditionsBox());
    await user.click(acceptButton());
    await waitFor(() => expect(initCalls()).toHaveLength(1), slow);
    expect(JSON.parse(String(initCalls()[0]?.[1]?.body))).toMatchObject({ card_id: 'pm-1' });
  });

  it('offers PayPal when the tenant takes it', async () => {
    const { user, initCalls } = await renderCheckin('/payment-checkin?invoiceId=F1', {
      preview: () => json(200, { ...owed, methods: ['credit_card', 'paypal'] }),
    });
    const paypal = await screen.findByRole('radio', { name: /PayPal/ }, slow);
    expect(paypal).toHaveProperty('disabled', false);
    expect(paypal).toHaveProperty('checked', false);
    await user.click(paypal);
    expect(
      screen.queryByRole('checkbox', { name: new RegExp(es.checkin.card.saveCard) }),
    ).toBeNull();
    await user.click(conditionsBox());
    await user.click(acceptButton());
    await waitFor(() => expect(initCalls()).toHaveLength(1), slow);
    expect(JSON.parse(String(initCalls()[0]?.[1]?.body))).toMatchObject({ method: 'paypal' });
  });

  it('says PayPal is not available, in words, when the tenant does not take it', async () => {
    await renderCheckin('/payment-checkin?invoiceId=F1');
    await screen.findByRole('radio', { name: new RegExp(es.checkin.method.creditCard) }, slow);
    expect(screen.getByText(es.checkin.method.paypalUnavailable)).toBeDefined();
    // Neither Bizum (not taken) nor a dead PayPal option.
    expect(screen.queryByRole('radio', { name: /Bizum/ })).toBeNull();
    expect(screen.queryByRole('radio', { name: /PayPal/ })).toBeNull();
  });

  it('offers Bizum where the tenant takes it: no card fields, no saved card sent', async () => {
    const { user, initCalls } = await renderCheckin('/payment-checkin?invoiceId=F1', {
      preview: () => json(200, { ...owed, methods: ['credit_card', 'bizum'] }),
      savedCards: [mainSavedCard],
    });
    const bizum = await screen.findByRole('radio', { name: /Bizum/ }, slow);
    expect(bizum).toHaveProperty('checked', false);
    expect(screen.getByText(es.checkin.method.bizumHint)).toBeDefined();
    await user.click(bizum);
    expect(screen.queryByRole('tab', { name: es.checkin.card.savedCards })).toBeNull();
    expect(
      screen.queryByRole('checkbox', { name: new RegExp(es.checkin.card.saveCard) }),
    ).toBeNull();
    expect(screen.getByText(es.checkin.bizum.text)).toBeDefined();
    await user.click(conditionsBox());
    await user.click(acceptButton());
    await waitFor(() => expect(initCalls()).toHaveLength(1), slow);
    const body = JSON.parse(String(initCalls()[0]?.[1]?.body));
    expect(body).toMatchObject({ method: 'bizum', invoice_id: 'F1' });
    expect(body).not.toHaveProperty('card_id');
    expect(body).not.toHaveProperty('save_card');
  });

  it('at the cap of saved methods, "save this card" is off, says why and asks for no saving', async () => {
    const { user, initCalls } = await renderCheckin('/payment-checkin?invoiceId=F1&amount=45.00', {
      roomForAnother: false,
    });
    const save = await screen.findByRole(
      'checkbox',
      { name: new RegExp(es.checkin.card.saveCard) },
      slow,
    );
    // Once the list has come (until then the server alone would refuse to keep the card).
    await waitFor(() => expect(save).toHaveProperty('disabled', true), slow);
    expect(save).toHaveProperty('checked', false);
    expect(screen.getByText(es.checkin.card.saveCardFull.replace('{{max}}', '10'))).toBeDefined();
    await user.click(conditionsBox());
    await user.click(acceptButton());
    await waitFor(() => expect(initCalls()).toHaveLength(1), slow);
    expect(JSON.parse(String(initCalls()[0]?.[1]?.body))).not.toHaveProperty('save_card');
  });

  it('starts the payment, shows the operation and posts the signed form to the gateway', async () => {
    const { user, initCalls, submit } = await renderCheckin(
      '/payment-checkin?invoiceId=F1&amount=45.00',
    );
    await user.click(
      await screen.findByRole('checkbox', { name: new RegExp(es.checkin.card.saveCard) }, slow),
    );
    await user.click(conditionsBox());
    await user.click(acceptButton());

    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1), slow);
    const [url, init] = initCalls()[0] ?? [];
    expect(String(url)).toMatch(/\/api\/1\.0\/redsys\/init-payment$/);
    expect(JSON.parse(String(init?.body))).toEqual({
      amount: 264.99,
      currency: 'EUR',
      language: 'es',
      invoice_id: 'F1',
      save_card: true,
    });
    // The form that was submitted (it leaves the page 100 ms later).
    const form = submit.mock.contexts[0] as HTMLFormElement | undefined;
    expect(form?.action).toBe('http://localhost:3180/sis/realizarPago');
    expect(form?.querySelectorAll('input[type="hidden"]')).toHaveLength(3);
    // Spec §2: the operation id, once there is one.
    const summary = screen.getByRole('region', { name: es.checkin.summary.title });
    expect(within(summary).getByText(es.checkin.summary.operation)).toBeDefined();
    expect(within(summary).getByText(startedPayment.order_id)).toBeDefined();
    // Spec §3 "Storage", and the attempt for the result screen.
    expect(sessionStorage.getItem('currentPaymentInvoice')).toBe('F1');
    expect(sessionStorage.getItem('currentPaymentAmount')).toBe('264.99');
    expect(sessionStorage.getItem('saveNewCard')).toBe('true');
    expect(sessionStorage.getItem('currentPaymentId')).toBe(startedPayment.payment_id);
    // The button keeps loading while the browser leaves.
    expect(screen.getByRole('button', { name: es.checkin.redirecting })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('pays a selection of instalments, and asks the simulator to decline with the testing toggle', async () => {
    localStorage.setItem(storageKeys.testingPaymentFails, 'true');
    const { user, initCalls, previewCalls } = await renderCheckin(
      '/payment-checkin?payments=p1,p2&amount=90',
      { testingMode: true },
    );
    const summary = await screen.findByRole('region', { name: es.checkin.summary.title }, slow);
    expect(JSON.parse(String(previewCalls()[0]?.[1]?.body))).toEqual({ payment_ids: ['p1', 'p2'] });
    expect(within(summary).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('link', { name: es.checkin.backToPayments }).getAttribute('href')).toBe(
      '/mis-pagos',
    );
    await user.click(conditionsBox());
    await user.click(acceptButton());
    await waitFor(() => expect(initCalls()).toHaveLength(1), slow);
    expect(JSON.parse(String(initCalls()[0]?.[1]?.body))).toMatchObject({
      amount: 264.99,
      payment_ids: ['p1', 'p2'],
      is_multiple_payment: true,
      simulate_decline: true,
    });
  });

  it('brings a refused start into view and focus, in true words, and lets the customer try again', async () => {
    const { user } = await renderCheckin('/payment-checkin?invoiceId=F1&amount=45.00', {
      answer: () => json(409, { message: 'in progress', code: 'payment_in_progress' }),
    });
    await user.click(
      await screen.findByRole('checkbox', { name: es.checkin.conditions.accept }, slow),
    );
    await user.click(acceptButton());
    const alert = await screen.findByRole('alert', {}, slow);
    expect(alert.textContent).toContain(es.errors.initFailed);
    expect(alert.textContent).toContain(es.errors.details.inProgress);
    expect(alert.textContent).not.toMatch(/minutos/);
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(acceptButton()).toHaveProperty('disabled', false);
  });

  it('when what is owed changed, says so and asks the server again', async () => {
    const { user, previewCalls } = await renderCheckin(
      '/payment-checkin?invoiceId=F1&amount=45.00',
      {
        answer: () =>
          json(422, {
            message: 'Invalid',
            code: 'validation_failed',
            errors: { amount: ['amount_mismatch'] },
          }),
      },
    );
    await user.click(
      await screen.findByRole('checkbox', { name: es.checkin.conditions.accept }, slow),
    );
    expect(previewCalls()).toHaveLength(1);
    await user.click(acceptButton());
    const alert = await screen.findByRole('alert', {}, slow);
    expect(alert.textContent).toContain(es.errors.details.amountMismatch);
    await waitFor(() => expect(previewCalls()).toHaveLength(2), slow);
  });

  it('a stale tab whose instalments were paid meanwhile says there is nothing to pay', async () => {
    const { initCalls } = await renderCheckin('/payment-checkin?invoiceId=F1&amount=45.00', {
      preview: () =>
        json(422, {
          message: 'Invalid',
          code: 'validation_failed',
          errors: { invoice_id: ['not_payable'] },
        }),
    });
    const alert = await screen.findByRole('alert', {}, slow);
    expect(alert.textContent).toContain(es.checkin.preview.paid.title);
    expect(alert.textContent).toContain(es.checkin.preview.paid.text);
    expect(within(alert).getByRole('link', { name: es.checkin.backToInvoice })).toBeDefined();
    expect(screen.queryByRole('button', { name: new RegExp(es.checkin.accept) })).toBeNull();
    expect(initCalls()).toHaveLength(0);
  });

  it("says what is not the customer's was not found", async () => {
    await renderCheckin('/payment-checkin?invoiceId=F1', {
      preview: () => json(404, { message: 'Not found', code: 'not_found' }),
    });
    const alert = await screen.findByRole('alert', {}, slow);
    expect(alert.textContent).toContain(es.checkin.preview.notFound.title);
  });

  it('without an invoice, says so and offers no form', async () => {
    const { initCalls, previewCalls } = await renderCheckin('/payment-checkin?amount=45');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(es.errors.missingInvoice);
    expect(screen.queryByRole('button', { name: new RegExp(es.checkin.accept) })).toBeNull();
    expect(initCalls()).toHaveLength(0);
    expect(previewCalls()).toHaveLength(0);
  });

  it('shows no saved-cards tab when there are no saved cards', async () => {
    await renderCheckin('/payment-checkin?invoiceId=F1&amount=45');
    expect(
      await screen.findByRole('checkbox', { name: new RegExp(es.checkin.card.saveCard) }, slow),
    ).toBeDefined();
    expect(screen.queryByRole('tab')).toBeNull();
  });
  it('a returned direct debit says "Devuelto" in the summary, not "Vencido"', async () => {
    const [first, second] = owed.instalments;
    if (!first || !second) throw new Error('two instalments');
    await renderCheckin('/payment-checkin?invoiceId=F2025-00083', {
      preview: () =>
        json(200, {
          ...owed,
          // Overdue by its date, but its debit came back: the server says `returned`.
          instalments: [{ ...first, status: 'returned' }, second],
        }),
    });
    const summary = await screen.findByRole('region', { name: es.checkin.summary.title }, slow);
    const [item] = within(summary).getAllByRole('listitem');
    expect(within(item as HTMLElement).getByText(es.checkin.summary.returned)).toBeDefined();
    expect(within(item as HTMLElement).queryByText(es.checkin.summary.overdue)).toBeNull();
  });
});
