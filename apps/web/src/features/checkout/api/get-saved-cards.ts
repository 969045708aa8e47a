import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import type { SavedCard } from '../utils/checkin-form';

type PaymentMethod = ApiResponse<'paymentMethods'>['methods'][number];

/** `MM/AA` still valid in the month of `now` (a card expires at the end of its month). */
function isUnexpired(expiry: string | null, now: Date): boolean {
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry ?? '');
  if (!match) return true;
  const year = 2000 + Number(match[2]);
  const month = Number(match[1]);
  return year * 12 + month >= now.getFullYear() * 12 + now.getMonth() + 1;
}

/**
 * The cards the customer can pay with (spec §2 "saved cards"): active, tokenised by the gateway
 * (a masked number), not expired, the main one first. Bank accounts and transfers are not card
 * payments.
 */
export function toSavedCards(methods: readonly PaymentMethod[], now: Date): SavedCard[] {
  return (
    methods
      .filter(
        (m) =>
          m.kind === 'card' &&
          m.status === 'active' &&
          m.card_masked !== null &&
          isUnexpired(m.card_expiry, now),
      )
      .map((m) => ({
        id: m.id,
        name: m.alias || m.card_brand || '',
        last4: (m.card_masked ?? '').replace(/\D/g, '').slice(-4),
        type: m.card_brand ?? '',
        isMain: m.is_main,
      }))
      // The main card first: it is the one chosen when the confirmation opens.
      .sort((a, b) => Number(b.isMain) - Number(a.isMain))
  );
}

/** The cards to pay with, and whether a new one can be kept (the server's count of the cap). */
export type SavedCards = { cards: SavedCard[]; roomForAnother: boolean };

export async function getSavedCards(signal?: AbortSignal): Promise<SavedCards> {
  const answer = await apiRequest('paymentMethods', signal ? { signal } : {});
  return {
    cards: toSavedCards(answer.methods, new Date()),
    roomForAnother: answer.room_for_another,
  };
}

/** Its own key: this is the confirmation's view of the list, not the payment-methods screen's. */
export const getSavedCardsQueryOptions = () =>
  queryOptions({
    queryKey: ['checkout', 'saved-cards'],
    queryFn: ({ signal }) => getSavedCards(signal),
  });

export function useSavedCards() {
  return useQuery(getSavedCardsQueryOptions());
}
