import { toUrlSafeKeepingPadding } from './base64.ts';
import { RedsysError } from './errors.ts';
import {
  decodeMerchantParameters,
  encodeMerchantParameters,
  getParameter,
} from './merchant-parameters.ts';
import type { MerchantParameters } from './merchant-parameters.ts';
import { isSignatureVersion, sign, verify } from './signature.ts';
import type { SignatureVersion } from './signature.ts';

/** The three fields of every signed Redsys message (form POST, notification, REST body). */
export type SignedMessage = {
  Ds_SignatureVersion: SignatureVersion;
  Ds_MerchantParameters: string;
  Ds_Signature: string;
};

/** What arrived on the wire: each field may be missing or not a string. */
export type UntrustedSignedMessage = {
  Ds_SignatureVersion?: unknown;
  Ds_MerchantParameters?: unknown;
  Ds_Signature?: unknown;
};

export type ReadFailure =
  | 'MISSING_FIELDS'
  | 'UNKNOWN_VERSION'
  | 'VERSION_NOT_ALLOWED'
  | 'MALFORMED_PARAMETERS'
  | 'MISSING_ORDER'
  | 'BAD_SIGNATURE';

export type ReadResult =
  | { ok: true; version: SignatureVersion; params: MerchantParameters }
  | { ok: false; reason: ReadFailure };

type SignInput = {
  version: SignatureVersion;
  secret: string;
  params: Readonly<Record<string, string>>;
};

function signMessage(orderName: string, { version, secret, params }: SignInput) {
  const order = getParameter(params, orderName);
  if (!order) throw new RedsysError('MISSING_ORDER', `${orderName} is required to sign`);
  const encoded = encodeMerchantParameters(params);
  return {
    Ds_SignatureVersion: version,
    Ds_MerchantParameters: encoded,
    Ds_Signature: sign(version, secret, order, encoded),
  } satisfies SignedMessage;
}

/** The signed form fields the browser POSTs to /sis/realizarPago (order: Ds_Merchant_Order). */
export function createPaymentRequest(input: SignInput): SignedMessage {
  return signMessage('Ds_Merchant_Order', input);
}

/**
 * A notification as Redsys sends it (order: Ds_Order): the V1 signature in base64url with its
 * padding kept, the V2 one in base64url. Used by the simulator and by tests of the receiver.
 */
export function createNotification(input: SignInput): SignedMessage {
  const message = signMessage('Ds_Order', input);
  return { ...message, Ds_Signature: toUrlSafeKeepingPadding(message.Ds_Signature) };
}

/** The signed synchronous answer of a REST call (order: Ds_Order), standard base64. Simulator. */
export function createRestResponse(input: SignInput): SignedMessage {
  return signMessage('Ds_Order', input);
}

function readSigned(
  input: UntrustedSignedMessage,
  secret: string,
  allowedVersions: readonly SignatureVersion[],
  orderName: 'Ds_Order' | 'Ds_Merchant_Order',
): ReadResult {
  const {
    Ds_SignatureVersion: version,
    Ds_MerchantParameters: encoded,
    Ds_Signature: signature,
  } = input ?? {};
  if (typeof version !== 'string' || typeof encoded !== 'string' || typeof signature !== 'string') {
    return { ok: false, reason: 'MISSING_FIELDS' };
  }
  if (!version || !encoded || !signature) return { ok: false, reason: 'MISSING_FIELDS' };
  if (!isSignatureVersion(version)) return { ok: false, reason: 'UNKNOWN_VERSION' };
  if (!allowedVersions.includes(version)) return { ok: false, reason: 'VERSION_NOT_ALLOWED' };
  let params: MerchantParameters;
  try {
    params = decodeMerchantParameters(encoded);
  } catch {
    return { ok: false, reason: 'MALFORMED_PARAMETERS' };
  }
  // The signature is keyed on this exact field: a request's order must not validate a response.
  if (!getParameter(params, orderName)) return { ok: false, reason: 'MISSING_ORDER' };
  if (!verify(version, secret, encoded, signature)) return { ok: false, reason: 'BAD_SIGNATURE' };
  return { ok: true, version, params };
}

/**
 * Verifies a notification (or a redirect's signed query) from Redsys with THIS merchant's secret.
 * Values come back URL-decoded (`Ds_Date` "09/11/2015", `Ds_Hour` "18:03"), as Redsys URL-encodes
 * them inside the JSON. Never throws.
 */
export function readNotification(
  input: UntrustedSignedMessage,
  secret: string,
  allowedVersions: readonly SignatureVersion[],
): ReadResult {
  const result = readSigned(input, secret, allowedVersions, 'Ds_Order');
  if (!result.ok) return result;
  const params = Object.fromEntries(
    Object.entries(result.params).map(([key, value]) => [key, urlDecode(value)]),
  );
  return { ...result, params };
}

/** Verifies a merchant's request (gateway side: the simulator). Values come back as sent. */
export function readPaymentRequest(
  input: UntrustedSignedMessage,
  secret: string,
  allowedVersions: readonly SignatureVersion[],
): ReadResult {
  return readSigned(input, secret, allowedVersions, 'Ds_Merchant_Order');
}

/**
 * Verifies the synchronous answer of a server-to-server REST call (`trataPeticionREST`), keyed on
 * Ds_Order like a notification. Values come back as sent. Never throws.
 */
export function readRestResponse(
  input: UntrustedSignedMessage,
  secret: string,
  allowedVersions: readonly SignatureVersion[],
): ReadResult {
  return readSigned(input, secret, allowedVersions, 'Ds_Order');
}

function urlDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
