import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/checkout.json';
import { renderWithRouter } from '@/testing/render-app';
import type { PaymentStatusAnswer } from '../utils/payment-verification';
import { ResultScreen } from './result-screen';
import { signInCustomer } from '@/testing/checkout';

const id = '6f1c1d2e-0000-4000-8000-000000000001';
const status = (
  state: PaymentStatusAnswer['status'],
  patch: Partial<PaymentStatusAnswer> = {},
): PaymentStatusAnswer => ({
  payment_id: id,
  order_id: '1234abcdEFGH',
  status: state,
  amount: 47.2,
  invoices: ['F2025-00012'],
  card_saved: false,
  created_at: '2025-05-12T15:30:00.000Z',
  settled_at: state === 'pending' ? null : '2025-05-12T15:31:00.000Z',
  failure: null,
  date: '2025-05-12',
  time: '17:31',
  refund: null,
  ...patch,
});

async function renderResult(path: string, answers: PaymentStatusAnswer[]) {
  let i = 0;
  const fetchMock = vi.fn<typeof fetch>(async () => {
    const body = answers[Math.min(i, answers.length - 1)];
    i += 1;
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient();
  await renderWithRouter(
    <QueryClientProvider client={client}>
      <ResultScreen />
    </QueryClientProvider>,
    { path },
  );
  return fetchMock;
}

beforeEach(signInCustomer);
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('payment result (spec §2 "Payment result")', () => {
  it('verifies first, then shows the success with its details and buttons', async () => {
    const fetchMock = await renderResult(`/payment/success?payment_id=${id}`, [
      status('pending'),
      status('paid', { card_saved: true }),
    ]);
    const live = screen.getByRole('status');
    expect(within(live).getByRole('heading', { level: 1 }).textContent).toBe(
      es.result.verifying.title,
    );
    await within(live).findByText(es.result.success.title, {}, { timeout: 5000 });
    expect(String(fetchMock.mock.calls[0]?.[0])).toMatch(`/redsys/payment/${id}/status`);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(screen.getByText('1234abcdEFGH')).toBeDefined();
    expect(screen.getByText('47,20 €')).toBeDefined();
    expect(screen.getByText('F2025-00012')).toBeDefined();
    expect(screen.getByText(es.result.status.completed)).toBeDefined();
    expect(screen.getByRole('link', { name: es.result.actions.home }).getAttribute('href')).toBe(
      '/home',
    );
    expect(
      screen.getByRole('link', { name: es.result.actions.viewInvoice }).getAttribute('href'),
    ).toBe('/invoice-detail/F2025-00012');
    expect(
      screen.getByRole('link', { name: es.result.actions.paymentMethods }).getAttribute('href'),
    ).toBe('/metodos-de-pago');
    // The outcome takes the focus, so the keyboard goes on to the buttons.
    await waitFor(() => expect(document.activeElement?.textContent).toBe(es.result.success.title));
  });

  it('downloads the receipt of a completed payment, with a loading and an error state', async () => {
    const fetchMock = await renderResult(`/payment/success?payment_id=${id}`, [status('paid')]);
    const button = await screen.findByRole(
      'button',
      { name: es.receipt.download },
      { timeout: 5000 },
    );
    let answer: (r: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fireEvent.click(button);
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(true));
    expect(String(fetchMock.mock.calls.at(-1)?.[0])).toMatch('/documents/receipt');
    expect(JSON.parse(String(fetchMock.mock.calls.at(-1)?.[1]?.body))).toEqual({
      payment_id: id,
      language: 'es',
    });
    answer(
      new Response(JSON.stringify({ url: '/1/api/1.0/documents/receipt/signed' }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));

    fetchMock.mockImplementationOnce(async () => new Response('{}', { status: 500 }));
    fireEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe(es.receipt.error);
    clicked.mockRestore();
  });

  it('never believes the success address: a failed payment shows the failure', async () => {
    await renderResult(`/payment/success?payment_id=${id}`, [status('failed')]);
    await screen.findByText(es.result.failure.title, {}, { timeout: 5000 });
    expect(screen.getByText(es.result.failure.text)).toBeDefined();
    expect(screen.getByText(es.result.status.failed)).toBeDefined();
    expect(screen.getByRole('link', { name: es.result.actions.retry }).getAttribute('href')).toBe(
      '/invoice-detail/F2025-00012',
    );
    expect(screen.queryByRole('link', { name: es.result.actions.paymentMethods })).toBeNull();
    // No receipt for a payment that did not happen.
    expect(screen.queryByRole('button', { name: es.receipt.download })).toBeNull();
  });

  it("words a bank's decline, the customer's own cancel and an error differently (review #14)", async () => {
    await renderResult(`/payment/error?payment_id=${id}`, [
      status('failed', { failure: 'declined' }),
    ]);
    await screen.findByText(es.result.failure.declined, {}, { timeout: 5000 });
    expect(screen.getByText(es.result.failure.declinedDetail)).toBeDefined();
    expect(
      screen.getByRole('link', { name: es.result.actions.otherCard }).getAttribute('href'),
    ).toBe('/invoice-detail/F2025-00012');
    expect(screen.queryByText(es.result.failure.text)).toBeNull();
  });

  it('names Bizum as the method, and words a Bizum KO as such (no "other card")', async () => {
    await renderResult(`/payment/error?payment_id=${id}`, [
      status('failed', { failure: 'declined', method: 'bizum' }),
    ]);
    await screen.findByText(es.result.failure.bizumDeclined, {}, { timeout: 5000 });
    expect(screen.getByText(es.result.failure.bizumDeclinedDetail)).toBeDefined();
    expect(screen.getByText(es.result.details.method)).toBeDefined();
    expect(screen.getByText(es.checkin.method.bizum)).toBeDefined();
    expect(screen.queryByText(es.result.failure.declined)).toBeNull();
    expect(screen.queryByRole('link', { name: es.result.actions.otherCard })).toBeNull();
    expect(screen.getByRole('link', { name: es.result.actions.retry })).toBeDefined();
  });

  it('names the card as the method of a paid card payment', async () => {
    await renderResult(`/payment/success?payment_id=${id}`, [
      status('paid', { method: 'credit_card' }),
    ]);
    await screen.findByText(es.result.details.method, {}, { timeout: 5000 });
    expect(screen.getByText(es.checkin.method.creditCard)).toBeDefined();
  });

  it("tells a customer who cancelled that they did, without an error's alarm", async () => {
    await renderResult(`/payment/error?payment_id=${id}`, [
      status('failed', { failure: 'cancelled' }),
    ]);
    await screen.findByText(es.result.cancelled.text, {}, { timeout: 5000 });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(es.result.cancelled.title);
    expect(screen.getByText(es.result.status.cancelled)).toBeDefined();
    expect(screen.queryByText(es.result.failure.title)).toBeNull();
    expect(screen.queryByText(es.result.status.failed)).toBeNull();
  });

  it("calls an error an error, shows the address's message and the Madrid time, never a raw id", async () => {
    await renderResult(
      `/payment/error?payment_id=${id}&message=${encodeURIComponent('Tarjeta caducada')}`,
      [status('failed', { failure: 'error', date: '2025-05-12', time: '17:31' })],
    );
    await screen.findByText(es.result.failure.errorDetail, {}, { timeout: 5000 });
    expect(screen.getByText(es.result.failure.text)).toBeDefined();
    expect(screen.getByText('“Tarjeta caducada”')).toBeDefined();
    // 15:31 UTC is 17:31 in Madrid: the server's clock, not the browser's.
    expect(screen.getByText('12/05/2025 17:31 h')).toBeDefined();
    expect(screen.getByText('1234abcdEFGH')).toBeDefined();
    expect(document.body.textContent).not.toContain(id);
  });

  it('says a payment that was already paid is refunded, and how far the refund is', async () => {
    await renderResult(`/payment/success?payment_id=${id}`, [
      status('paid', { refund: { amount: 47.2, status: 'refunded' } }),
    ]);
    await screen.findByText(es.result.refunded.title, {}, { timeout: 5000 });
    expect(
      screen.getByText(es.result.refund.whole.refunded.replace('{{amount}}', '47,20 €')),
    ).toBeDefined();
    expect(screen.getByText(es.result.refund.status.refunded)).toBeDefined();
    // Not a success: no receipt wording, no way to the invoice as if it were paid by this.
    expect(screen.queryByText(es.result.success.title)).toBeNull();
    expect(screen.getByRole('link', { name: es.result.actions.viewPayments })).toBeDefined();
  });

  it('shows a partial surplus beside the success', async () => {
    await renderResult(`/payment/success?payment_id=${id}`, [
      status('paid', { refund: { amount: 12.5, status: 'review' } }),
    ]);
    await screen.findByText(es.result.success.title, {}, { timeout: 5000 });
    expect(
      screen.getByText(es.result.refund.partial.review.replace('{{amount}}', '12,50 €')),
    ).toBeDefined();
    expect(screen.getByText(es.result.details.refund)).toBeDefined();
    expect(screen.getByText(es.result.refund.status.review)).toBeDefined();
  });

  it('stops verifying a payment replaced by a newer one and says so', async () => {
    const fetchMock = await renderResult(`/payment/success?payment_id=${id}`, [
      status('superseded', { settled_at: null }),
    ]);
    await screen.findByText(es.result.superseded.title, {}, { timeout: 5000 });
    expect(screen.getByText(es.result.superseded.detail)).toBeDefined();
    expect(screen.getByText(es.result.status.superseded)).toBeDefined();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('retries several invoices from the payments list', async () => {
    await renderResult(`/payment/error?payment_id=${id}`, [
      status('failed', { invoices: ['F1', 'F2'] }),
    ]);
    await screen.findByText(es.result.failure.title, {}, { timeout: 5000 });
    expect(screen.getByText('F1, F2')).toBeDefined();
    expect(screen.getByRole('link', { name: es.result.actions.retry }).getAttribute('href')).toBe(
      '/mis-pagos',
    );
  });

  it("the spec's failure address without a payment shows the failure, with nothing asked", async () => {
    const fetchMock = await renderResult(
      '/payment-checkout?success=false&invoiceId=F1&amount=45.00&status=error&message=x',
      [],
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(es.result.failure.title);
    expect(screen.getByText('45,00 €')).toBeDefined();
    expect(screen.getByRole('link', { name: es.result.actions.retry }).getAttribute('href')).toBe(
      '/invoice-detail/F1',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("the spec's success address is verified with the payment this tab started", async () => {
    sessionStorage.setItem('currentPaymentId', id);
    const fetchMock = await renderResult('/payment-checkout?success=true', [status('paid')]);
    await screen.findByText(es.result.success.title, {}, { timeout: 5000 });
    expect(String(fetchMock.mock.calls[0]?.[0])).toMatch(`/redsys/payment/${id}/status`);
  });

  it('a success claimed with nothing to verify is not shown as a success', async () => {
    await renderResult('/payment-checkout?success=true', []);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(es.result.unknown.title);
    expect(screen.queryByText(es.result.success.title)).toBeNull();
  });
});
