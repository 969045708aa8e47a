import { describe, expect, it } from 'vitest';
import {
  canAccept,
  type CheckinForm,
  emptyCheckinForm,
  initPaymentBody,
  type ResolvedCheckinForm,
  resolveForm,
  type SavedCard,
} from './checkin-form';

const card: SavedCard = {
  id: 'pm-1',
  name: 'Mi tarjeta',
  last4: '0004',
  type: 'VISA',
  isMain: false,
};
const main: SavedCard = {
  id: 'pm-2',
  name: 'Principal',
  last4: '1111',
  type: 'VISA',
  isMain: true,
};
const options = {
  availableMethods: ['credit_card'] as const,
  savedCards: [card],
  canSaveCard: true,
};
const form = (patch: Partial<ResolvedCheckinForm>): ResolvedCheckinForm => ({
  ...emptyCheckinForm,
  method: null,
  cardSource: 'new',
  ...patch,
});

describe('the confirmation as it opens (review #5)', () => {
  const open = (patch: Partial<CheckinForm>, savedCards: SavedCard[]) =>
    resolveForm(
      { ...emptyCheckinForm, ...patch },
      { availableMethods: ['credit_card'], savedCards, canSaveCard: true },
    );

  it("chooses the card and the customer's main saved card", () => {
    expect(open({}, [card, main])).toMatchObject({
      method: 'credit_card',
      cardSource: 'saved',
      savedCardId: 'pm-2',
      acceptedConditions: false,
    });
    // No main card among them: the first.
    expect(open({}, [card])).toMatchObject({ cardSource: 'saved', savedCardId: 'pm-1' });
    // No saved card: a new one.
    expect(open({}, [])).toMatchObject({ cardSource: 'new', savedCardId: null });
  });

  it('keeps what the customer changed', () => {
    expect(open({ cardSource: 'new' }, [card, main])).toMatchObject({ cardSource: 'new' });
    expect(open({ savedCardId: 'pm-1' }, [card, main])).toMatchObject({ savedCardId: 'pm-1' });
  });

  it('never asks to save the card when the customer keeps as many methods as the cap allows', () => {
    const wants = { ...emptyCheckinForm, cardSource: 'new' as const, saveNewCard: true };
    const room = { availableMethods: ['credit_card'] as const, savedCards: [], canSaveCard: true };
    expect(resolveForm(wants, room).saveNewCard).toBe(true);
    expect(resolveForm(wants, { ...room, canSaveCard: false }).saveNewCard).toBe(false);
  });

  it('chooses no method when the tenant takes none', () => {
    expect(
      resolveForm(emptyCheckinForm, { availableMethods: [], savedCards: [], canSaveCard: true })
        .method,
    ).toBe(null);
  });
});

describe('"Aceptar y continuar" (spec §4 "Card payment")', () => {
  it('is disabled until a method is chosen and the conditions are accepted', () => {
    expect(canAccept(form({}), options)).toBe(false);
    expect(canAccept(form({ method: 'credit_card' }), options)).toBe(false);
    expect(canAccept(form({ acceptedConditions: true }), options)).toBe(false);
    expect(canAccept(form({ method: 'credit_card', acceptedConditions: true }), options)).toBe(
      true,
    );
  });

  it('needs a saved card on the saved-cards tab, and one that is in the list', () => {
    const saved = form({ method: 'credit_card', acceptedConditions: true, cardSource: 'saved' });
    expect(canAccept(saved, options)).toBe(false);
    expect(canAccept({ ...saved, savedCardId: 'pm-unknown' }, options)).toBe(false);
    expect(canAccept({ ...saved, savedCardId: 'pm-1' }, options)).toBe(true);
    expect(canAccept({ ...saved, savedCardId: 'pm-1' }, { ...options, savedCards: [] })).toBe(
      false,
    );
  });

  it('refuses a method the tenant does not take (PayPal for now)', () => {
    expect(canAccept(form({ method: 'paypal', acceptedConditions: true }), options)).toBe(false);
    expect(
      canAccept(form({ method: 'paypal', acceptedConditions: true }), {
        ...options,
        availableMethods: ['credit_card', 'paypal'],
      }),
    ).toBe(true);
  });
});

describe('the init-payment body', () => {
  const base = { amount: 47.2, language: 'ca' as const, simulateDecline: false };
  const card = form({ method: 'credit_card', acceptedConditions: true });

  it('pays one invoice, several invoices or chosen instalments', () => {
    expect(
      initPaymentBody({ ...base, form: card, target: { kind: 'invoices', invoiceIds: ['F1'] } }),
    ).toEqual({ amount: 47.2, currency: 'EUR', language: 'ca', invoice_id: 'F1' });
    expect(
      initPaymentBody({
        ...base,
        form: card,
        target: { kind: 'invoices', invoiceIds: ['F1', 'F2'] },
      }),
    ).toEqual({
      amount: 47.2,
      currency: 'EUR',
      language: 'ca',
      multiple_invoices: ['F1', 'F2'],
      is_multiple_payment: true,
    });
    expect(
      initPaymentBody({
        ...base,
        form: card,
        target: { kind: 'payments', paymentIds: ['p1', 'p2', 'p3'] },
      }),
    ).toMatchObject({ payment_ids: ['p1', 'p2', 'p3'], is_multiple_payment: true });
  });

  it('asks to save a new card, or pays with a saved one, and passes the testing toggle', () => {
    const target = { kind: 'invoices' as const, invoiceIds: ['F1'] };
    expect(
      initPaymentBody({ ...base, target, form: { ...card, saveNewCard: true } }),
    ).toMatchObject({ save_card: true });
    const withSaved = initPaymentBody({
      ...base,
      target,
      form: { ...card, cardSource: 'saved', savedCardId: 'pm-1', saveNewCard: true },
    });
    expect(withSaved).toMatchObject({ card_id: 'pm-1' });
    expect(withSaved).not.toHaveProperty('save_card');
    expect(initPaymentBody({ ...base, target, form: card, simulateDecline: true })).toMatchObject({
      simulate_decline: true,
    });
    expect(initPaymentBody({ ...base, target, form: card })).not.toHaveProperty('simulate_decline');
    expect(initPaymentBody({ ...base, target, form: card })).not.toHaveProperty('method');
    expect(initPaymentBody({ ...base, target, form: { ...card, method: 'paypal' } })).toMatchObject(
      { method: 'paypal' },
    );
  });

  it('sends Bizum without a card: neither a saved one nor "save this card"', () => {
    const target = { kind: 'invoices' as const, invoiceIds: ['F1'] };
    const bizum = initPaymentBody({
      ...base,
      target,
      form: { ...card, method: 'bizum', cardSource: 'saved', savedCardId: 'pm-1' },
    });
    expect(bizum).toMatchObject({ method: 'bizum', invoice_id: 'F1' });
    expect(bizum).not.toHaveProperty('card_id');
    const noSave = initPaymentBody({
      ...base,
      target,
      form: { ...card, method: 'bizum', cardSource: 'new', saveNewCard: true },
    });
    expect(noSave).not.toHaveProperty('save_card');
  });
});
