import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { initErrorKind } from './init-error';

describe('why a payment could not start (spec §8 "Card payment")', () => {
  it('maps the API codes of /redsys/init-payment', () => {
    const cases: [ApiError, ReturnType<typeof initErrorKind>][] = [
      [new ApiError(422, 'validation_failed', { amount: ['amount_mismatch'] }), 'amountMismatch'],
      [new ApiError(422, 'validation_failed', { amount: ['too_small'] }), 'invalidAmount'],
      [new ApiError(422, 'validation_failed', { invoice_id: ['required'] }), 'missingInvoice'],
      [new ApiError(422, 'validation_failed', { payment_ids: ['not_payable'] }), 'notPayable'],
      [new ApiError(422, 'validation_failed', { invoice_id: ['not_payable'] }), 'notPayable'],
      [new ApiError(404, 'not_found'), 'notFound'],
      [new ApiError(409, 'payment_in_progress'), 'inProgress'],
      [new ApiError(503, 'payment_unavailable'), 'unavailable'],
      [new ApiError(401, 'unauthorized'), 'unauthenticated'],
      [new ApiError(0, 'network_error'), 'network'],
      [new ApiError(500, 'internal_error'), 'generic'],
      [new ApiError(422, 'validation_failed', {}), 'generic'],
    ];
    for (const [error, kind] of cases) expect(initErrorKind(error), error.message).toBe(kind);
    expect(initErrorKind(new Error('boom'))).toBe('generic');
  });
});
