import { formatAmount } from '@/lib/money';
import { translate, type Tree } from '@/lib/translate';
import { portalNotificationTypes, type TPortalNotificationEvent } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import type { NotificationItem } from '../api/get-notifications';
import type { NotificationsT } from '../use-notifications-t';
import { wordNotification } from './notification-wording';

const locales = Object.fromEntries(
  Object.entries(
    import.meta.glob<Tree>('../../../locales/*/notifications.json', {
      eager: true,
      import: 'default',
    }),
  ).map(([path, texts]) => [/locales\/(\w+)\//.exec(path)?.[1] ?? '', texts]),
);
const languages = ['es', 'ca', 'en', 'eu'] as const;

/** The app's lookup (lib/translate.ts) over this language's notification strings. */
async function tIn(language: string): Promise<NotificationsT> {
  const texts = { language, resources: { notifications: locales[language] ?? {} } };
  const t = (key: string, values?: Record<string, unknown>) =>
    translate(texts, ['notifications'], key, values);
  return Promise.resolve(t as unknown as NotificationsT);
}

const base = { id: 'n1', date: '2026-11-20', time: '10:00', isRead: false, link: null };
const portal = (event: TPortalNotificationEvent): NotificationItem => ({
  ...base,
  source: 'portal',
  ...event,
});

/** One of each type the portal creates, as the API serves it. */
const samples: TPortalNotificationEvent[] = [
  {
    type: 'payment_succeeded',
    params: { payment_id: 'p1', amount_cents: 26499, invoices: ['F2026-00083'] },
  },
  { type: 'payment_failed', params: { payment_id: 'p1', amount_cents: 26499 } },
  {
    type: 'payment_overpaid',
    params: {
      payment_id: 'p1',
      amount_cents: 4590,
      refund_cents: 4590,
      invoices: ['F2026-00084'],
      refund: 'automatic',
    },
  },
  {
    type: 'payment_refunded',
    params: { payment_id: 'p1', refund_cents: 4590, invoices: ['F2026-00084'] },
  },
  { type: 'invoice_new', params: { invoice_id: 'F2026-00090' } },
  { type: 'method_verified', params: { alias: 'Cuenta nómina' } },
  { type: 'request_reviewed', params: { request: 'main_change', answer: 'approved' } },
  { type: 'fiscal_data_reviewed', params: { answer: 'rejected', reason: 'Falta la escritura' } },
  {
    type: 'debit_returned',
    params: {
      payment_id: 'p-1',
      invoice_id: 'F2026-00091',
      amount_cents: 3025,
      reason_code: 'AM04',
      fee_cents: 350,
      fee_charged: true,
    },
  },
  { type: 'invoice_thread_answered', params: { thread_id: 't1', invoice_id: 'FV-2026-0012' } },
  {
    type: 'auto_pay_failed',
    params: {
      payment_id: 'p1',
      invoice_id: 'F2026-00091',
      amount_cents: 4590,
      code: '0190',
      retry: true,
    },
  },
];

describe('notifications worded in the reader language from type and parameters', () => {
  it('has a sample of every type the contract knows', () => {
    expect(samples.map((s) => s.type).sort()).toEqual([...portalNotificationTypes].sort());
  });

  it.each(languages)(
    'words every type in %s, with no missing key and no Spanish left',
    async (language) => {
      const t = await tIn(language);
      const spanish = await tIn('es');
      for (const sample of samples) {
        const worded = wordNotification(portal(sample), t);
        expect(worded.title, sample.type).not.toMatch(/^(payment|events)\.|\{\{/);
        expect(worded.message, sample.type).not.toMatch(/^(payment|events)\.|\{\{/);
        if (language !== 'es') {
          expect(worded.title, sample.type).not.toBe(
            wordNotification(portal(sample), spanish).title,
          );
        }
      }
    },
  );

  it('formats amounts with the app money formatter and names the invoices', async () => {
    for (const language of languages) {
      const worded = wordNotification(
        portal(samples[0] as TPortalNotificationEvent),
        await tIn(language),
      );
      expect(worded.message).toContain(formatAmount(264.99));
      expect(worded.message).toContain('F2026-00083');
    }
  });

  it('words a payment not completed in English and Basque', async () => {
    const failed = portal({
      type: 'payment_failed',
      params: { payment_id: 'p', amount_cents: 26499 },
    });
    expect(wordNotification(failed, await tIn('en'))).toEqual({
      title: 'Payment not completed',
      message: `The payment of ${formatAmount(264.99)} was not completed. You can try again.`,
    });
    expect(wordNotification(failed, await tIn('eu')).title).toBe('Ordainketa ez da osatu');
  });

  it('tells a partial surplus and a manual refund apart', async () => {
    const partial = wordNotification(
      portal({
        type: 'payment_overpaid',
        params: {
          payment_id: 'p',
          amount_cents: 10000,
          refund_cents: 2500,
          invoices: ['F1'],
          refund: 'manual',
        },
      }),
      await tIn('en'),
    );
    expect(partial).toEqual({
      title: 'Duplicate payment: we are reviewing it',
      message:
        `Of your payment of ${formatAmount(100)}, ${formatAmount(25)} was for something already ` +
        `paid (F1). Our team will refund ${formatAmount(25)} and let you know.`,
    });
  });

  it('words the requests and a verified account without an alias', async () => {
    const t = await tIn('ca');
    expect(
      wordNotification(
        portal({
          type: 'request_reviewed',
          params: { request: 'verification', answer: 'rejected' },
        }),
        t,
      ),
    ).toEqual({
      title: 'Sol·licitud rebutjada',
      message: "La teva sol·licitud d'activació del compte bancari ha estat rebutjada.",
    });
    expect(
      wordNotification(portal({ type: 'method_verified', params: { alias: ' ' } }), t).message,
    ).toBe('El teu compte bancari ja està verificat i actiu.');
  });

  it("shows the organisation's notifications as written", async () => {
    const note: NotificationItem = {
      ...base,
      source: 'organisation',
      type: 'info',
      title: 'Cambio de horario',
      message: 'Abrimos de 9:00 a 14:00.',
    };
    expect(wordNotification(note, await tIn('en'))).toEqual({
      title: 'Cambio de horario',
      message: 'Abrimos de 9:00 a 14:00.',
    });
  });

  it("words a fiscal data decision, with the organisation's reason of a rejection", async () => {
    const fiscal = (answer: 'approved' | 'rejected', reason: string) =>
      portal({ type: 'fiscal_data_reviewed', params: { answer, reason } });
    expect(wordNotification(fiscal('approved', ''), await tIn('en'))).toEqual({
      title: 'Tax details change approved',
      message: 'Your new tax details are now on your profile and on your next invoices.',
    });
    const es = await tIn('es');
    expect(wordNotification(fiscal('rejected', 'Falta la escritura'), es)).toEqual({
      title: 'Cambio de datos fiscales rechazado',
      message: 'Tus datos fiscales no han cambiado. Motivo: Falta la escritura',
    });
    expect(wordNotification(fiscal('rejected', '  '), es).message).toBe(
      'Tus datos fiscales no han cambiado.',
    );
  });

  it('words a returned debit with its fee only when the fee is charged', async () => {
    const t = await tIn('es');
    const params = {
      payment_id: 'p-1',
      invoice_id: 'F-7',
      amount_cents: 3025,
      reason_code: 'AM04',
      fee_cents: 350,
      fee_charged: true,
    };
    const charged = wordNotification(portal({ type: 'debit_returned', params }), t);
    expect(charged.title).toBe('Recibo devuelto');
    expect(charged.message).toContain('F-7');
    expect(charged.message).toContain(formatAmount(30.25));
    expect(charged.message).toContain(formatAmount(3.5));
    const free = wordNotification(
      portal({ type: 'debit_returned', params: { ...params, fee_charged: false } }),
      t,
    );
    expect(free.message).not.toContain(formatAmount(3.5));
  });
});
