import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../gateway.ts';

export const QUERY_PATH = '/sis/rest/query';

const signedMessageSchema = {
  type: 'object',
  properties: {
    Ds_SignatureVersion: { type: 'string' },
    Ds_MerchantParameters: { type: 'string' },
    Ds_Signature: { type: 'string' },
  },
} as const;

/**
 * The simulator's order query, for the portal's reconciliation of stale pending payments.
 * Body: {Ds_SignatureVersion, Ds_MerchantParameters (Ds_Merchant_Order, Ds_Merchant_MerchantCode,
 * Ds_Merchant_Terminal), Ds_Signature} signed like a payment request. Answer (always 200, as
 * Redsys' REST services): the order's outcome signed like a notification (Ds_Response: the final
 * code, or 9998 while the card page is open, 9999 while the 3DS challenge is), or
 * {errorCode: "XML0024"} for an order it never received, or {errorCode: "SIS0xxx"} for a bad
 * request. Real Redsys has its own query services (REST "consultas", SOAP), so the portal's client
 * for this endpoint is an adapter that a real deployment swaps.
 */
export function registerQueryRoutes(app: FastifyInstance, gateway: Gateway) {
  app.post(
    QUERY_PATH,
    {
      schema: {
        body: signedMessageSchema,
        response: {
          200: {
            type: 'object',
            properties: { ...signedMessageSchema.properties, errorCode: { type: 'string' } },
          },
        },
      },
    },
    async (request) => gateway.query((request.body ?? {}) as Record<string, unknown>),
  );
}
