import { describe, expect, it } from 'vitest';
import type { PaymentSession } from './payment-session';
import { messageParam, parseResultQuery, retryHref } from './result-query';

const noSession: PaymentSession = {
  invoice: null,
  amount: null,
  saveNewCard: false,
  paymentId: null,
};
const id = '6f1c1d2e-0000-4000-8000-000000000001';
const parse = (path: string, query: string, session = noSession) =>
  parseResultQuery(path, new URLSearchParams(query), session);

describe('the result address (spec §2 "Payment result", §4)', () => {
  it("reads the gateway's return addresses: a payment to verify", () => {
    expect(parse('/payment/success', `payment_id=${id}`)).toMatchObject({
      paymentId: id,
      claim: 'success',
    });
    expect(parse('/payment/error', `payment_id=${id}`)).toMatchObject({
      paymentId: id,
      claim: 'failure',
    });
  });

  it("reads the spec's checkout forms", () => {
    expect(parse('/payment-checkout', 'success=true').claim).toBe('success');
    expect(parse('/payment-checkout', 'status=success').claim).toBe('success');
    expect(parse('/payment-checkout', 'success=false').claim).toBe('failure');
    expect(parse('/payment-checkout', 'status=error&success=true').claim).toBe('failure');
    expect(parse('/payment-checkout', '').claim).toBeNull();
    expect(
      parse(
        '/payment-checkout',
        'success=false&invoiceId=F1&amount=45.00&status=error&message=El%20pago%20fue%20cancelado&payment_id=&order_id=1234abc',
      ),
    ).toEqual({
      paymentId: null,
      claim: 'failure',
      invoiceIds: ['F1'],
      amount: 45,
      orderId: '1234abc',
      message: 'El pago fue cancelado',
    });
  });

  it('without payment_id, verifies the payment this tab started', () => {
    const session: PaymentSession = {
      invoice: 'F7',
      amount: '12.50',
      saveNewCard: true,
      paymentId: id,
    };
    expect(parse('/payment-checkout', 'success=true', session)).toEqual({
      paymentId: id,
      claim: 'success',
      invoiceIds: ['F7'],
      amount: 12.5,
      orderId: null,
      message: null,
    });
  });

  it("keeps the spec's message as one line of plain text, at most 200 characters", () => {
    expect(messageParam(null)).toBeNull();
    expect(messageParam('   ')).toBeNull();
    expect(messageParam(' El pago\n\tfue\u0000 cancelado ')).toBe('El pago fue cancelado');
    expect(messageParam('<b>hola</b>')).toBe('<b>hola</b>');
    const long = messageParam('x'.repeat(500));
    expect(long).toHaveLength(200);
    expect(long?.endsWith('…')).toBe(true);
  });

  it('ignores ids that are not ids', () => {
    expect(parse('/payment/success', 'payment_id=<script>').paymentId).toBeNull();
    expect(parse('/payment/success', `payment_id=${'a'.repeat(65)}`).paymentId).toBeNull();
  });

  it('retries at the invoice, or the payments list for several', () => {
    expect(retryHref(['F1'])).toBe('/invoice-detail/F1');
    expect(retryHref(['F1', 'F2'])).toBe('/mis-pagos');
    expect(retryHref([])).toBe('/mis-pagos');
  });
});
