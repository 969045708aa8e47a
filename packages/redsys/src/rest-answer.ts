import { getParameter } from './merchant-parameters.ts';
import type { MerchantParameters } from './merchant-parameters.ts';
import { readRestResponse } from './messages.ts';
import { SIGNATURE_VERSIONS } from './signature.ts';

/** An answer of `trataPeticionREST` that is not a usable signed message of the order asked about. */
export type RestAnswerRefusal =
  /** Redsys' unsigned `{"errorCode":"SISnnnn"}`: refused before any operation. */
  | { kind: 'error'; code: string }
  | { kind: 'bad_signature' }
  | { kind: 'malformed'; detail: string };

/** A verified answer of the order asked about: its parameters and Ds_Response. */
export type RestAnswerRead = {
  kind: 'read';
  params: MerchantParameters;
  param: (name: string) => string | undefined;
  response: string;
};

/**
 * Reads an answer of the REST service (refunds, MIT charges): a signed message must verify with
 * the merchant's key, name the same order and be of the transaction type asked for (when it says).
 * The caller words the Ds_Response. Never throws.
 */
export function readRestAnswer(
  body: unknown,
  check: { secret: string; order: string; type: string; typeName: string },
): RestAnswerRead | RestAnswerRefusal {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { kind: 'malformed', detail: 'not a JSON object' };
  }
  const fields = body as Record<string, unknown>;
  if (fields.Ds_Signature === undefined && fields.Ds_MerchantParameters === undefined) {
    const code = fields.errorCode;
    if (typeof code === 'string' && /^[A-Z0-9]{1,12}$/.test(code)) return { kind: 'error', code };
    return { kind: 'malformed', detail: 'neither a signed message nor an errorCode' };
  }
  const read = readRestResponse(fields, check.secret, SIGNATURE_VERSIONS);
  if (!read.ok) {
    return read.reason === 'BAD_SIGNATURE'
      ? { kind: 'bad_signature' }
      : { kind: 'malformed', detail: read.reason };
  }
  const param = (name: string) => getParameter(read.params, name);
  if (param('Ds_Order') !== check.order) return { kind: 'malformed', detail: 'another order' };
  const type = param('Ds_TransactionType');
  if (type !== undefined && type !== check.type) {
    return { kind: 'malformed', detail: `not a ${check.typeName}` };
  }
  return { kind: 'read', params: read.params, param, response: param('Ds_Response') ?? '' };
}
