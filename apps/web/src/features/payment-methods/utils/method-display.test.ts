import { describe, expect, it } from 'vitest';
import type { Translate } from '../texts';
import { sampleCard } from '../testing/fixtures';
import { lastFour, maskIban, methodHref, methodName } from './method-display';

const t = ((key: string) => `«${key}»`) as Translate;

describe('how a method reads', () => {
  it('is named by its alias, else the card brand, else its kind', () => {
    expect(methodName(sampleCard, t)).toBe('Mi tarjeta');
    expect(methodName({ ...sampleCard, alias: '  ' }, t)).toBe('VISA');
    expect(methodName({ ...sampleCard, alias: '', card_brand: null }, t)).toBe('«kinds.card»');
    expect(methodName({ ...sampleCard, kind: 'bank_account', alias: '' }, t)).toBe(
      '«kinds.bank_account»',
    );
  });

  it('shows only the last four digits', () => {
    expect(lastFour(sampleCard)).toBe('0004');
    expect(lastFour({ card_masked: null, iban: 'ES91 2100 0418 4502 0005 1332' })).toBe('1332');
    expect(lastFour({ card_masked: null, iban: null })).toBeNull();
    expect(maskIban('ES91 2100 0418 4502 0005 1332')).toBe('ES91 •••• 1332');
  });

  it('opens the view of its kind with the id in the query', () => {
    expect(methodHref(sampleCard)).toBe('/credit-card?id=pm-card');
    expect(methodHref({ id: 'a b', kind: 'bank_account' })).toBe('/bank-account?id=a%20b');
    expect(methodHref({ id: 'x', kind: 'bank_transfer' })).toBe('/datos-bancarios');
  });
});
