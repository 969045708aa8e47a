import { createNotification, PUBLIC_TEST_MERCHANT } from '@portal/redsys';
import type { FastifyInstance } from 'fastify';

/**
 * The parameters Redsys notifies for the order of an init answer's merchant parameters `p`, with
 * the response code `response` (0000 authorised, 0190 declined, ...); `extra` overrides any.
 */
export function notificationParams(
  p: Record<string, string>,
  response: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    Ds_Date: '21%2F11%2F2026',
    Ds_Hour: '10%3A00',
    Ds_Amount: p.Ds_Merchant_Amount ?? '',
    Ds_Currency: '978',
    Ds_Order: p.Ds_Merchant_Order ?? '',
    Ds_MerchantCode: p.Ds_Merchant_MerchantCode ?? '',
    Ds_Terminal: '001',
    Ds_Response: response,
    Ds_TransactionType: p.Ds_Merchant_TransactionType ?? '0',
    Ds_SecurePayment: '1',
    Ds_AuthorisationCode: response === '0000' ? '123456' : '',
    ...extra,
  };
}

/** The same notification signed as the gateway posts it (form fields), with the public test key. */
export function signedNotification(
  p: Record<string, string>,
  response: string,
  extra: Record<string, string> = {},
  secret: string = PUBLIC_TEST_MERCHANT.secretKey,
): Record<string, string> {
  return createNotification({
    version: 'HMAC_SHA256_V1',
    secret,
    params: notificationParams(p, response, extra),
  }) as unknown as Record<string, string>;
}

/** Redsys posts a notification (its form fields `message`) to the portal of `tenant`. */
export const postNotification = (
  app: Pick<FastifyInstance, 'inject'>,
  message: Record<string, string>,
  tenant = 'demo',
) =>
  app.inject({
    method: 'POST',
    url: `/${tenant}/api/1.0/redsys/notification`,
    payload: new URLSearchParams(message).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
