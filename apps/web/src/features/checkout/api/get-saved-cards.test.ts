import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '@/lib/api-client';
import { toSavedCards } from './get-saved-cards';

type Method = ApiResponse<'paymentMethods'>['methods'][number];

const card = (patch: Partial<Method>): Method => ({
  id: 'pm-1',
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
  created_at: '2025-01-01T00:00:00.000Z',
  pending_request: null,
  pending_requests: [],
  ...patch,
});

describe('saved cards of the confirmation', () => {
  const now = new Date(2026, 10, 21);

  it('lists the active, unexpired cards with their last four digits', () => {
    expect(toSavedCards([card({})], now)).toEqual([
      { id: 'pm-1', name: 'Mi tarjeta', last4: '0004', type: 'VISA', isMain: false },
    ]);
    expect(toSavedCards([card({ alias: '', card_expiry: '11/26' })], now)).toEqual([
      { id: 'pm-1', name: 'VISA', last4: '0004', type: 'VISA', isMain: false },
    ]);
  });

  it('puts the main card first', () => {
    const cards = toSavedCards([card({ id: 'a' }), card({ id: 'b', is_main: true })], now);
    expect(cards.map((c) => [c.id, c.isMain])).toEqual([
      ['b', true],
      ['a', false],
    ]);
  });

  it('leaves out bank accounts, inactive, untokenised and expired cards', () => {
    expect(
      toSavedCards(
        [
          card({ id: 'iban', kind: 'bank_account', card_masked: null }),
          card({ id: 'off', status: 'inactive' }),
          card({ id: 'no-token', card_masked: null }),
          card({ id: 'old', card_expiry: '10/26' }),
        ],
        now,
      ),
    ).toEqual([]);
  });
});
