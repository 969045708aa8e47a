import { requireBase64 } from './base64.ts';
import { RedsysError } from './errors.ts';

/** Decoded Ds_MerchantParameters: Redsys sends every value as a string. */
export type MerchantParameters = Record<string, string>;

/** Base64 (standard alphabet, padded) of the JSON, as Redsys' own libraries send it. */
export function encodeMerchantParameters(params: Readonly<Record<string, string>>): string {
  return Buffer.from(JSON.stringify(params), 'utf8').toString('base64');
}

/**
 * Reads Ds_MerchantParameters in either base64 alphabet, padded or not. Values come back exactly
 * as sent (a notification's Ds_Date stays `09%2F11%2F2015`; `readNotification` URL-decodes).
 * Throws `RedsysError('INVALID_MERCHANT_PARAMETERS')` on anything that is not base64 of a JSON
 * object.
 */
export function decodeMerchantParameters(encoded: string): MerchantParameters {
  const bytes = requireBase64(encoded);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new RedsysError('INVALID_MERCHANT_PARAMETERS', 'Ds_MerchantParameters is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new RedsysError('INVALID_MERCHANT_PARAMETERS', 'Ds_MerchantParameters is not an object');
  }
  // Object.fromEntries defines own properties, so a "__proto__" key cannot reach the prototype.
  return Object.fromEntries(
    Object.entries(parsed).map(([key, value]) => [key, stringifyValue(value)]),
  );
}

function stringifyValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // Nested objects (e.g. Ds_Merchant_EMV3DS) are kept as their JSON text.
  return JSON.stringify(value);
}

/**
 * A parameter by name, ignoring case: merchants may send `DS_MERCHANT_ORDER` or
 * `Ds_Merchant_Order` and Redsys accepts both.
 */
export function getParameter(params: MerchantParameters, name: string): string | undefined {
  if (Object.hasOwn(params, name)) return params[name];
  const wanted = name.toUpperCase();
  const key = Object.keys(params).find((candidate) => candidate.toUpperCase() === wanted);
  return key === undefined ? undefined : params[key];
}
