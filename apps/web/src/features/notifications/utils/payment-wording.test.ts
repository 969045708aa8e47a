import i18next from 'i18next';
import { formatAmount } from '@/lib/money';
import { describe, expect, it } from 'vitest';
import type { NotificationsT } from '../use-notifications-t';
import { wordNotification } from './payment-wording';

const locales = Object.fromEntries(
  Object.entries(
    import.meta.glob<Record<string, unknown>>('../../../locales/*/notifications.json', {
      eager: true,
      import: 'default',
    }),
  ).map(([path, texts]) => [/locales\/(\w+)\//.exec(path)?.[1] ?? '', texts]),
);

async function tIn(language: string): Promise<NotificationsT> {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: language,
    ns: ['notifications'],
    defaultNS: 'notifications',
    resources: { [language]: { notifications: locales[language] ?? {} } },
    interpolation: { escapeValue: false },
  });
  return i18n.getFixedT(language, 'notifications') as unknown as NotificationsT;
}

const stored = { title: 'Texto guardado', message: 'Mensaje guardado' };

describe('payment notifications worded in the reader language (issue 20)', () => {
  it('words a refunded duplicate payment in the four languages, never with a missing key', async () => {
    const note = {
      ...stored,
      type: 'payment_overpaid',
      params: {
        payment_id: 'p1',
        amount_cents: 4590,
        refund_cents: 4590,
        invoices: ['F2026-00084'],
        refund: 'automatic',
      },
    };
    for (const language of ['es', 'ca', 'en', 'eu']) {
      const worded = wordNotification(note, await tIn(language));
      expect(worded.title).not.toMatch(/payment\.|overpaid/);
      expect(worded.message).toContain(formatAmount(45.9));
      expect(worded.message).toContain('F2026-00084');
    }
    expect(wordNotification(note, await tIn('es'))).toEqual({
      title: 'Pago duplicado: te lo devolvemos',
      message:
        `Tu pago de ${formatAmount(45.9)} llegó cuando F2026-00084 ya estaba pagado. ` +
        `Te devolvemos ${formatAmount(45.9)} a la misma tarjeta.`,
    });
  });

  it('tells a partial surplus and a manual refund apart', async () => {
    const t = await tIn('en');
    const partial = wordNotification(
      {
        ...stored,
        type: 'payment_overpaid',
        params: { amount_cents: 10000, refund_cents: 2500, invoices: ['F1'], refund: 'manual' },
      },
      t,
    );
    expect(partial).toEqual({
      title: 'Duplicate payment: we are reviewing it',
      message:
        `Of your payment of ${formatAmount(100)}, ${formatAmount(25)} was for something already ` +
        `paid (F1). Our team will refund ${formatAmount(25)} and let you know.`,
    });
    expect(
      wordNotification(
        { ...stored, type: 'payment_refunded', params: { refund_cents: 2500, invoices: ['F1'] } },
        t,
      ).title,
    ).toBe('Refund made');
  });

  it('keeps the stored texts for other types and for parameters that do not fit', async () => {
    const t = await tIn('es');
    expect(wordNotification({ ...stored, type: 'invoice_new', params: null }, t)).toEqual(stored);
    expect(
      wordNotification({ ...stored, type: 'payment_succeeded', params: { amount_cents: 'x' } }, t),
    ).toEqual(stored);
    expect(wordNotification({ ...stored, type: 'payment_refunded', params: null }, t)).toEqual(
      stored,
    );
  });
});
