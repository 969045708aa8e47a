import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { paymentMethodName } from './payment-method-name';
import { translate, type Tree } from './translate';

const locales = import.meta.glob<Tree>('../locales/*/invoices.json', {
  eager: true,
  import: 'default',
});

/** The app's lookup (lib/translate.ts) over this language's invoice strings. */
async function tIn(language: string): Promise<TFunction<'invoices'>> {
  const texts = {
    language,
    resources: { invoices: locales[`../locales/${language}/invoices.json`] ?? {} },
  };
  const t = (key: string, values?: Record<string, unknown>) =>
    translate(texts, ['invoices'], key, values);
  return Promise.resolve(t as unknown as TFunction<'invoices'>);
}

describe('payment method names in the reader language (review #4)', () => {
  it.each([
    ['es', 'Domiciliación bancaria', 'Tarjeta'],
    ['ca', 'Domiciliació bancària', 'Targeta'],
    ['en', 'Direct debit', 'Card'],
    ['eu', 'Helbideratze bankarioa', 'Txartela'],
  ])('words the kinds in %s', async (language, directDebit, card) => {
    const t = await tIn(language);
    expect(paymentMethodName({ method: 'Domiciliación', method_kind: 'direct_debit' }, t)).toBe(
      directDebit,
    );
    expect(paymentMethodName({ method: 'Tarjeta', method_kind: 'card' }, t)).toBe(card);
    for (const kind of ['bank_transfer', 'cash'] as const) {
      expect(paymentMethodName({ method: 'x', method_kind: kind }, t)).not.toMatch(
        /paymentMethodKinds|^x$/,
      );
    }
  });

  it('shows a method the portal does not know as the provider wrote it', async () => {
    expect(paymentMethodName({ method: 'Bizum', method_kind: 'other' }, await tIn('en'))).toBe(
      'Bizum',
    );
  });
});
