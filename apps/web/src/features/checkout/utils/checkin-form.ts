import type { TCheckinMethod, TInitPaymentRequest } from '@portal/contract/redsys';
import type { Language } from '@/lib/i18n';
import type { CheckinTarget } from './checkin-query';

/** Spec §3 "Checkin methods". */
export type PaymentMethod = TCheckinMethod;

/** The card tabs of spec §2: a new card (typed on the gateway's page) or a saved one. */
export type CardSource = 'new' | 'saved';

/** A saved card as the confirmation lists it (spec §3 "Saved card": id, name, last4, type). */
export type SavedCard = { id: string; name: string; last4: string; type: string; isMain: boolean };

/**
 * What the customer changed. `null` is "as the screen opens" (review #5, PRODUCT.md "Screens"):
 * the first method the tenant takes (the card), the saved-cards tab when there are saved cards,
 * and the main saved card (else the first).
 */
export type CheckinForm = {
  method: PaymentMethod | null;
  cardSource: CardSource | null;
  savedCardId: string | null;
  saveNewCard: boolean;
  acceptedConditions: boolean;
};

/** The form with the defaults filled in: what the screen shows and what is sent. */
export type ResolvedCheckinForm = {
  method: PaymentMethod | null;
  cardSource: CardSource;
  savedCardId: string | null;
  saveNewCard: boolean;
  acceptedConditions: boolean;
};

/** Nothing changed yet; the conditions stay to be accepted (spec §4, PRODUCT.md "Screens"). */
export const emptyCheckinForm: CheckinForm = {
  method: null,
  cardSource: null,
  savedCardId: null,
  saveNewCard: false,
  acceptedConditions: false,
};

export type CheckinOptions = {
  /** The methods this tenant takes, in the server's order (checkout preview). */
  availableMethods: readonly PaymentMethod[];
  savedCards: readonly SavedCard[];
  /**
   * Whether the customer may keep one more method (the server's `room_for_another`): at the cap
   * "save this card" is off and says why, and the payment asks for no saving.
   */
  canSaveCard: boolean;
};

export function resolveForm(form: CheckinForm, options: CheckinOptions): ResolvedCheckinForm {
  const { availableMethods, savedCards } = options;
  const main = savedCards.find((card) => card.isMain) ?? savedCards[0];
  return {
    ...form,
    method: form.method ?? availableMethods[0] ?? null,
    cardSource: form.cardSource ?? (main ? 'saved' : 'new'),
    savedCardId: form.savedCardId ?? main?.id ?? null,
    saveNewCard: form.saveNewCard && options.canSaveCard,
  };
}

/**
 * Spec §4 "Card payment": "Accept and continue" is enabled once a method is chosen and the
 * conditions are accepted; with the saved-cards tab, a card must be chosen too.
 */
export function canAccept(form: ResolvedCheckinForm, options: CheckinOptions): boolean {
  if (!form.method || !options.availableMethods.includes(form.method)) return false;
  if (!form.acceptedConditions) return false;
  if (form.method === 'credit_card' && form.cardSource === 'saved') {
    return options.savedCards.some((card) => card.id === form.savedCardId);
  }
  return true;
}

/**
 * The body of `/redsys/init-payment`: what is paid, the amount the server showed (checked again
 * by the server), the method and card, the gateway's language and the testing toggle.
 */
export function initPaymentBody(input: {
  target: CheckinTarget;
  amount: number;
  form: ResolvedCheckinForm;
  language: Language;
  simulateDecline: boolean;
}): TInitPaymentRequest {
  const { target, amount, form, language, simulateDecline } = input;
  const body: TInitPaymentRequest = { amount, currency: 'EUR', language };
  if (target.kind === 'payments') {
    body.payment_ids = target.paymentIds;
    if (target.paymentIds.length > 1) body.is_multiple_payment = true;
  } else if (target.invoiceIds.length === 1) {
    body.invoice_id = target.invoiceIds[0] ?? '';
  } else {
    body.multiple_invoices = target.invoiceIds;
    body.is_multiple_payment = true;
  }
  if (form.method === 'paypal') body.method = 'paypal';
  // Bizum keeps no card: neither a saved card nor "save this card" goes with it.
  if (form.method === 'bizum') body.method = 'bizum';
  if (form.method === 'credit_card' && form.cardSource === 'saved' && form.savedCardId) {
    body.card_id = form.savedCardId;
  } else if (form.method === 'credit_card' && form.saveNewCard) {
    body.save_card = true;
  }
  if (simulateDecline) body.simulate_decline = true;
  return body;
}
