import { decodeMerchantParameters } from '@portal/redsys';
import { signedNotification } from '../../test/redsys-notification.ts';
import { authed } from './http.ts';

/** A payment started through the API and the notification Redsys would send for it. */
export type PreparedPayment = {
  tenant: string;
  order: string;
  attemptId: string;
  kind: 'payment' | 'card';
  /** The Redsys card reference the notification carries (tokenisations). */
  reference: string;
  notification: Record<string, string>;
};

type InitAnswer = { payment_id: string; redsys_params: { Ds_MerchantParameters: string } };

/** The signed "authorised" notification for an init answer, as the gateway posts it. */
export function authorisedNotification(
  p: Record<string, string>,
  extra: Record<string, string> = {},
): Record<string, string> {
  return signedNotification(p, '0000', extra);
}

/**
 * Starts payments through the API for a customer: one per unpaid instalment (up to
 * `instalments`), plus `cards` card tokenisations (0 EUR, which need no instalment), and answers
 * the notification of each.
 */
export async function preparePayments(
  baseUrl: string,
  tenant: string,
  token: string,
  { instalments, cards }: { instalments: number; cards: number },
): Promise<PreparedPayment[]> {
  const call = authed(baseUrl, tenant, token);
  const list = await call(
    'POST',
    '/payments',
    { datefrom: '20000101', dateto: '20991231', page: '1', pending: true, overdue: true },
    30_000,
  );
  if (list.status !== 200) throw new Error(`payments: ${list.status} ${list.body}`);
  const unpaid = (JSON.parse(list.body) as { payments: { payment_id: string; amount: number }[] })
    .payments;
  const prepared: PreparedPayment[] = [];
  for (const item of unpaid.slice(0, instalments)) {
    const res = await call(
      'POST',
      '/redsys/init-payment',
      { amount: item.amount, payment_ids: [item.payment_id] },
      30_000,
    );
    if (res.status !== 200) throw new Error(`init-payment: ${res.status} ${res.body}`);
    const body = JSON.parse(res.body) as InitAnswer;
    const p = decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters);
    prepared.push({
      tenant,
      order: p.Ds_Merchant_Order ?? '',
      attemptId: body.payment_id,
      kind: 'payment',
      reference: '',
      notification: authorisedNotification(p),
    });
  }
  for (let i = 0; i < cards; i++) {
    const res = await call('POST', '/payment-methods/card', { alias: `Tarjeta ${i}` }, 30_000);
    if (res.status !== 200) throw new Error(`add card: ${res.status} ${res.body}`);
    const body = JSON.parse(res.body) as InitAnswer;
    const p = decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters);
    const reference = `${p.Ds_Merchant_Order ?? ''}`.padEnd(40, 'r');
    prepared.push({
      tenant,
      order: p.Ds_Merchant_Order ?? '',
      attemptId: body.payment_id,
      kind: 'card',
      reference,
      notification: authorisedNotification(p, {
        Ds_Merchant_Identifier: reference,
        Ds_ExpiryDate: '3012',
        Ds_Card_Number: '454881******0004',
        Ds_Card_Brand: '1',
      }),
    });
  }
  return prepared;
}

/** What the database holds for each payment of a tenant ($1) by order number ($2), as the owner. */
export const settlementSql = `
  SELECT a.order_number AS "order", a.status, a.kind,
    (SELECT count(*)::int FROM redsys_notifications n
      WHERE n.tenant_id = a.tenant_id AND n.attempt_id = a.id AND n.outcome = 'paid') AS paid_notes,
    (SELECT count(*)::int FROM payment_attempt_items i JOIN instalments e
        ON e.tenant_id = i.tenant_id AND e.id = i.instalment_id
      WHERE i.tenant_id = a.tenant_id AND i.attempt_id = a.id AND e.status = 'paid') AS paid_items,
    (SELECT count(*)::int FROM payment_attempt_items i
      WHERE i.tenant_id = a.tenant_id AND i.attempt_id = a.id) AS items,
    (SELECT count(*)::int FROM payment_methods m
      WHERE m.tenant_id = a.tenant_id AND m.redsys_reference = rpad(a.order_number, 40, 'r')) AS cards
  FROM payment_attempts a WHERE a.tenant_id = $1 AND a.order_number = ANY($2::text[])`;

export type Settlement = {
  order: string;
  status: 'pending' | 'paid' | 'failed';
  kind: 'payment' | 'card_verification';
  paid_notes: number;
  paid_items: number;
  items: number;
  cards: number;
};

/**
 * A payment is either untouched (pending, nothing applied) or applied exactly once (paid, one
 * 'paid' notification, all its instalments paid or its one card saved): never half of it.
 */
export function consistency(s: Settlement): 'untouched' | 'once' | 'broken' {
  if (s.status === 'pending' && s.paid_notes === 0 && s.paid_items === 0 && s.cards === 0)
    return 'untouched';
  const applied =
    s.kind === 'payment' ? s.items > 0 && s.paid_items === s.items && s.cards === 0 : s.cards === 1;
  return s.status === 'paid' && s.paid_notes === 1 && applied ? 'once' : 'broken';
}
