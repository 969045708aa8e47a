import { createHmac, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type { XMLParser } from 'fast-xml-parser';
import { decodeLooseBase64 } from './base64.ts';
import { RedsysError } from './errors.ts';
import { isAuthorised } from './response-codes.ts';
import { deriveOrderKey } from './signature.ts';

/*
 * Redsys' SOAP query service `consultaOperaciones` (redsys-notes §1.2): the one official way to ask
 * what happened to an order, since Redsys sends no notification when the customer never enters a
 * card. The same request serves sis-t.redsys.es, sis.redsys.es and the local simulator.
 */

/** Path of the SOAP query service on Redsys' hosts (and the simulator). */
export const QUERY_SERVICE_PATH = '/apl02/services/SerClsWSConsulta';
export const QUERY_SOAP_ACTION = 'consultaOperaciones';
const SOAP_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const WEB_NS = 'http://webservices.apl02.redsys.es';
/** The SOAP query is signed with HMAC_SHA256_V1 only (S1 §3.4.1). */
const QUERY_SIGNATURE_VERSION = 'HMAC_SHA256_V1';

/** `Transaction`: one order and one transaction type; `Monitor`: every operation of one order. */
export type QueryMessage = 'Transaction' | 'Monitor';

export type QueryRequestInput = {
  message: QueryMessage;
  merchantCode: string;
  terminal: string;
  order: string;
  /** Required for `Transaction` (0 payment, 3 refund, 7 authentication...); ignored by `Monitor`. */
  transactionType?: string;
  /** The merchant's Base64 secret (the same key as for payments). */
  secret: string;
};

export type QueryRequest = {
  /** The SOAP envelope to POST. */
  body: string;
  headers: { 'content-type': string; soapaction: string };
  /** The signed `<Version>` element, exactly as sent. */
  version: string;
  signature: string;
};

/** One operation of a query answer (`<Response>`). */
export type QueryOperation = {
  order: string;
  transactionType: string;
  /** Ds_State: S requested, P authorising, A authenticating, F finished, T no answer, ... */
  state: string;
  response?: string;
  amountCents: number;
  currency: string;
  authorisationCode?: string;
  merchantCode: string;
  terminal: string;
  date: string;
  hour: string;
};

/** What the service answered, once its signature is checked (required on an operation's). */
export type QueryAnswer =
  | { kind: 'not_found' }
  | { kind: 'error'; code: string }
  | { kind: 'ok'; operations: QueryOperation[] };

/** Why an answer could not be trusted or read. */
export type QueryAnswerFailure = { kind: 'bad_signature' } | { kind: 'malformed'; detail: string };

/** "No existen operaciones para los datos solicitados": SIS never received the order. */
export const QUERY_NOT_FOUND = 'XML0024';
/** "Error en la firma": the query's signature did not verify. */
export const QUERY_BAD_SIGNATURE = 'XML0023';
/** The first 4 characters of Ds_Order are not digits: such an order cannot be queried. */
export const QUERY_BAD_ORDER = 'XML0015';

const DIGITS = (max: number) => new RegExp(`^\\d{1,${max}}$`);
const ORDER = /^\d{4}[0-9A-Za-z]{0,8}$/;
const TRANSACTION_TYPE = /^[0-9A-Z]{1,2}$/;

function checkIdentity(merchantCode: string, terminal: string, order: string) {
  if (typeof merchantCode !== 'string' || !DIGITS(9).test(merchantCode)) {
    throw new RedsysError('INVALID_QUERY', 'Ds_MerchantCode is 1-9 digits');
  }
  if (typeof terminal !== 'string' || !DIGITS(3).test(terminal)) {
    throw new RedsysError('INVALID_QUERY', 'Ds_Terminal is 1-3 digits');
  }
  if (typeof order !== 'string' || !ORDER.test(order)) {
    // XML0015 at Redsys: only orders starting with 4 digits can be queried.
    throw new RedsysError('INVALID_QUERY', 'Ds_Order is 4 digits then up to 8 alphanumerics');
  }
}

/** Base64 HMAC-SHA256 of the exact `<Version>` text, keyed with the order's 3DES key. */
export function signQueryVersion(secret: string, order: string, version: string): string {
  const key = deriveOrderKey(QUERY_SIGNATURE_VERSION, secret, order);
  return createHmac('sha256', key).update(version, 'utf8').digest('base64');
}

/** Constant-time check of a query (or answer) signature; never throws. */
export function verifyQuerySignature(
  secret: string,
  order: string,
  version: string,
  signature: string,
): boolean {
  try {
    const received = decodeLooseBase64(signature, { canonical: true });
    const expected = Buffer.from(signQueryVersion(secret, order, version), 'base64');
    if (!received || received.length !== expected.length) return false;
    return timingSafeEqual(received, expected);
  } catch {
    return false;
  }
}

function envelope(inner: string): string {
  return (
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:web="${WEB_NS}"><soapenv:Header/>` +
    `<soapenv:Body><web:consultaOperaciones><cadenaXML><![CDATA[${inner}]]></cadenaXML>` +
    `</web:consultaOperaciones></soapenv:Body></soapenv:Envelope>`
  );
}

/**
 * The signed SOAP request (S1 §3.2.1, §3.4.1): no whitespace between tags, the HMAC over the
 * `<Version Ds_Version="0.0">…</Version>` element as sent, wrapped in `<Messages>` and the SOAP
 * envelope. Every value is checked against its format first, so nothing can inject markup.
 * Throws `RedsysError` on a bad value or an unusable secret.
 */
export function createQueryRequest(input: QueryRequestInput): QueryRequest {
  const { message, merchantCode, terminal, order, secret } = input;
  checkIdentity(merchantCode, terminal, order);
  let fields = `<Ds_MerchantCode>${merchantCode}</Ds_MerchantCode><Ds_Terminal>${terminal}</Ds_Terminal><Ds_Order>${order}</Ds_Order>`;
  if (message === 'Transaction') {
    const type = input.transactionType ?? '';
    if (!TRANSACTION_TYPE.test(type)) {
      throw new RedsysError('INVALID_QUERY', 'A Transaction query needs Ds_TransactionType');
    }
    fields += `<Ds_TransactionType>${type}</Ds_TransactionType>`;
  } else if (message !== 'Monitor') {
    throw new RedsysError('INVALID_QUERY', 'Unknown query message');
  }
  const version = `<Version Ds_Version="0.0"><Message><${message}>${fields}</${message}></Message></Version>`;
  const signature = signQueryVersion(secret, order, version);
  const messages = `<Messages>${version}<Signature>${signature}</Signature><SignatureVersion>${QUERY_SIGNATURE_VERSION}</SignatureVersion></Messages>`;
  return {
    body: envelope(messages),
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: QUERY_SOAP_ACTION },
    version,
    signature,
  };
}

// ---------------------------------------------------------------------------------------------
// Parsing. fast-xml-parser reads the structure (no regular expression over nested markup); the
// signed `<Version>` element is cut out of the validated text by position, since a signature
// covers bytes, not a tree. Values stay strings ("0000" must not become 0).

const MAX_ANSWER_CHARS = 1_000_000;

/**
 * fast-xml-parser's single-file CommonJS build, required at the first query answer read rather than
 * imported at start: its ES build is thirty modules that a starting server does not need (it
 * reads a query answer only when it reconciles), and the readers here stay synchronous.
 */
let XMLParserClass: typeof XMLParser | undefined;
function parser(): XMLParser {
  XMLParserClass ??= (
    createRequire(import.meta.url)('fast-xml-parser') as { XMLParser: typeof XMLParser }
  ).XMLParser;
  return new XMLParserClass({
    ignoreAttributes: true,
    parseTagValue: false,
    trimValues: true,
    removeNSPrefix: true,
    maxNestedTags: 20,
    isArray: (name) => name === 'Response',
  });
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseXml(text: string): Node | string {
  if (text.length > MAX_ANSWER_CHARS) return 'too large';
  // Redsys never sends a DTD; refusing one rules out entity expansion tricks altogether.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return 'DTD refused';
  try {
    const parsed: unknown = parser().parse(text, true);
    return isNode(parsed) ? parsed : 'not XML';
  } catch {
    return 'not well-formed XML';
  }
}

function child(node: unknown, ...path: string[]): unknown {
  let current = node;
  for (const name of path) {
    if (!isNode(current) || !Object.hasOwn(current, name)) return undefined;
    current = current[name];
  }
  return current;
}

const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/** The exact `<Version …>…</Version>` text of a `<Messages>` document, when there is one. */
function versionElement(messages: string): string | null {
  const start = messages.search(/<Version[\s>]/);
  if (start < 0) return null;
  if (messages.slice(start + 1).search(/<Version[\s>]/) >= 0) return null;
  const close = messages.indexOf('</Version>', start);
  if (close < 0) return null;
  return messages.slice(start, close + '</Version>'.length);
}

function readOperation(node: unknown): QueryOperation | string {
  if (!isNode(node)) return 'Response is not an element';
  const field = (name: string) => str(node[name]);
  const required = [
    'Ds_Order',
    'Ds_TransactionType',
    'Ds_State',
    'Ds_Amount',
    'Ds_Currency',
    'Ds_MerchantCode',
    'Ds_Terminal',
  ] as const;
  for (const name of required) if (!field(name)) return `Response without ${name}`;
  const amount = field('Ds_Amount') ?? '';
  if (!/^\d{1,12}$/.test(amount)) return 'Ds_Amount is not a whole number of cents';
  const response = field('Ds_Response');
  const authorisationCode = field('Ds_AuthorisationCode');
  return {
    order: field('Ds_Order') ?? '',
    transactionType: field('Ds_TransactionType') ?? '',
    state: field('Ds_State') ?? '',
    ...(response ? { response } : {}),
    amountCents: Number(amount),
    currency: field('Ds_Currency') ?? '',
    ...(authorisationCode ? { authorisationCode } : {}),
    merchantCode: field('Ds_MerchantCode') ?? '',
    terminal: field('Ds_Terminal') ?? '',
    date: field('Ds_Date') ?? '',
    hour: field('Ds_Hour') ?? '',
  };
}

/**
 * Reads the `<Messages>` document itself (the text of `consultaOperacionesReturn`). A present
 * `<Signature>` must be the HMAC of the `<Version>` element under the queried order's key;
 * a mismatching one is refused, and an answer with operations (`<Response>`) must have one: only
 * an error (`<ErrorMsg>`) may come unsigned. Never throws.
 */
export function readQueryMessages(
  messages: string,
  check: { secret: string; order: string },
): QueryAnswer | QueryAnswerFailure {
  const parsed = parseXml(messages);
  if (typeof parsed === 'string') return { kind: 'malformed', detail: parsed };
  const root = child(parsed, 'Messages');
  if (!isNode(root)) return { kind: 'malformed', detail: 'no Messages element' };
  const signature = str(root.Signature);
  if (signature !== undefined) {
    const version = versionElement(messages);
    if (!version || !verifyQuerySignature(check.secret, check.order, version, signature)) {
      return { kind: 'bad_signature' };
    }
  }
  const message = child(root, 'Version', 'Message');
  if (!isNode(message)) return { kind: 'malformed', detail: 'no Version/Message element' };
  const errorCode = str(child(message, 'ErrorMsg', 'Ds_ErrorCode'));
  const responses = message.Response;
  if (errorCode !== undefined && responses === undefined) {
    return errorCode === QUERY_NOT_FOUND
      ? { kind: 'not_found' }
      : { kind: 'error', code: errorCode };
  }
  if (!Array.isArray(responses) || errorCode !== undefined) {
    return { kind: 'malformed', detail: 'neither Response nor ErrorMsg' };
  }
  // An answer about an operation (authorised, declined) moves money in the books: Redsys signs it
  // (redsys-notes.md §1.2), so one without a signature is refused like a wrong one. Only an
  // error answer (XML0024, which at most releases a checkout) may come unsigned.
  if (signature === undefined) return { kind: 'bad_signature' };
  const operations: QueryOperation[] = [];
  for (const node of responses) {
    const operation = readOperation(node);
    if (typeof operation === 'string') return { kind: 'malformed', detail: operation };
    operations.push(operation);
  }
  return { kind: 'ok', operations };
}

/**
 * Reads the SOAP answer of `consultaOperaciones`: `consultaOperacionesResponse/
 * consultaOperacionesReturn` holds the `<Messages>` document as escaped text (or CDATA). A SOAP
 * fault or any other shape is `malformed`. Never throws.
 */
export function readQueryAnswer(
  soap: string,
  check: { secret: string; order: string },
): QueryAnswer | QueryAnswerFailure {
  if (typeof soap !== 'string') return { kind: 'malformed', detail: 'no body' };
  const parsed = parseXml(soap);
  if (typeof parsed === 'string') return { kind: 'malformed', detail: parsed };
  const body = child(parsed, 'Envelope', 'Body');
  const fault = child(body, 'Fault', 'faultstring');
  if (fault !== undefined) return { kind: 'malformed', detail: `SOAP fault: ${str(fault) ?? ''}` };
  const inner = child(body, 'consultaOperacionesResponse', 'consultaOperacionesReturn');
  if (typeof inner !== 'string') {
    return { kind: 'malformed', detail: 'no consultaOperacionesReturn text' };
  }
  return readQueryMessages(inner, check);
}

// ---------------------------------------------------------------------------------------------
// Classification (redsys-notes §1.2, §5, §6).

/** What an operation's state and response code mean for the merchant. */
export type OperationOutcome =
  /** S/P/A, or Ds_Response 9998/9999: the customer is still on the card or 3DS page. */
  | 'in_progress'
  /** F with the approval code of its type: 0000-0099 (payment, authentication), 0900 (refund, confirmation), 0400 (cancellation). */
  | 'approved'
  /** F with any other Ds_Response. */
  | 'denied'
  /** Anything else (F without Ds_Response, T, E, W...): not provably final, so not acted on. */
  | 'unknown';

const IN_PROGRESS_STATES = new Set(['S', 'P', 'A']);
const IN_PROGRESS_RESPONSES = new Set(['9998', '9999']);

/** Whether `response` approves an operation of `transactionType`. */
export function isApproved(transactionType: string, response: string): boolean {
  if (transactionType === '3' || transactionType === '2') return response === '0900';
  if (transactionType === '9') return response === '0400';
  return isAuthorised(response);
}

export function classifyOperation(
  operation: Pick<QueryOperation, 'state' | 'response' | 'transactionType'>,
): OperationOutcome {
  const { state, response, transactionType } = operation;
  if (IN_PROGRESS_STATES.has(state)) return 'in_progress';
  if (response && IN_PROGRESS_RESPONSES.has(response)) return 'in_progress';
  if (state !== 'F' || !response || !/^\d{4}$/.test(response)) return 'unknown';
  return isApproved(transactionType, response) ? 'approved' : 'denied';
}

// ---------------------------------------------------------------------------------------------
// Gateway side (the local simulator): read a request, write an answer in Redsys' shape.

export type ReadQueryRequest =
  | {
      ok: true;
      message: QueryMessage;
      merchantCode: string;
      terminal: string;
      order: string;
      transactionType?: string;
      /** The exact signed `<Version>` text and its signature, for the gateway to verify. */
      version: string;
      signature: string;
    }
  | { ok: false; code: string };

/**
 * Reads a `consultaOperaciones` SOAP request as Redsys would: the `<Messages>` in `cadenaXML`,
 * the message type and its four fields. Answers an XML error code for anything malformed
 * (XML0015 for an order not starting with 4 digits). The caller verifies the signature with the
 * merchant's key. Never throws.
 */
export function readQueryRequest(soap: string): ReadQueryRequest {
  const malformed = { ok: false, code: 'XML0000' } as const;
  if (typeof soap !== 'string') return malformed;
  const parsed = parseXml(soap);
  if (typeof parsed === 'string') return malformed;
  const cadena = child(parsed, 'Envelope', 'Body', 'consultaOperaciones', 'cadenaXML');
  if (typeof cadena !== 'string') return malformed;
  const messages = parseXml(cadena);
  if (typeof messages === 'string') return malformed;
  const root = child(messages, 'Messages');
  const message = child(root, 'Version', 'Message');
  const signature = str(child(root, 'Signature'));
  const version = versionElement(cadena);
  if (!isNode(message) || !signature || !version) return malformed;
  const kind = (['Transaction', 'Monitor'] as const).find((name) => isNode(message[name]));
  if (!kind) return malformed;
  const fields = message[kind] as Node;
  const merchantCode = str(fields.Ds_MerchantCode) ?? '';
  const terminal = str(fields.Ds_Terminal) ?? '';
  const order = str(fields.Ds_Order) ?? '';
  const transactionType = str(fields.Ds_TransactionType);
  if (!/^\d{4}/.test(order)) return { ok: false, code: QUERY_BAD_ORDER };
  if (!DIGITS(9).test(merchantCode) || !DIGITS(3).test(terminal) || !ORDER.test(order)) {
    return malformed;
  }
  if (kind === 'Transaction' && !TRANSACTION_TYPE.test(transactionType ?? '')) return malformed;
  return {
    ok: true,
    message: kind,
    merchantCode,
    terminal,
    order,
    ...(kind === 'Transaction' ? { transactionType } : {}),
    version,
    signature,
  };
}

const escapeXml = (value: string) =>
  value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

function operationXml(operation: QueryOperation): string {
  const fields: [string, string | undefined][] = [
    ['Ds_MerchantCode', operation.merchantCode],
    ['Ds_Terminal', operation.terminal],
    ['Ds_Order', operation.order],
    ['Ds_TransactionType', operation.transactionType],
    ['Ds_Date', operation.date],
    ['Ds_Hour', operation.hour],
    ['Ds_Amount', String(operation.amountCents)],
    ['Ds_Currency', operation.currency],
    ['Ds_State', operation.state],
    ['Ds_Response', operation.response],
    ['Ds_AuthorisationCode', operation.authorisationCode],
  ];
  const inner = fields
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
    .join('');
  return `<Response Ds_Version="0.0">${inner}</Response>`;
}

/**
 * A `consultaOperaciones` answer in Redsys' shape: the `<Messages>` document escaped as the text
 * of `consultaOperacionesReturn`. Operations are signed like the request (the queried order's key
 * over the `<Version>` element); an error answer carries no signature.
 */
export function createQueryAnswer(
  input:
    | { errorCode: string }
    | { secret: string; order: string; operations: readonly QueryOperation[] },
): string {
  let messages: string;
  if ('errorCode' in input) {
    messages = `<Messages><Version Ds_Version="0.0"><Message><ErrorMsg><Ds_ErrorCode>${escapeXml(input.errorCode)}</Ds_ErrorCode></ErrorMsg></Message></Version></Messages>`;
  } else {
    const version = `<Version Ds_Version="0.0"><Message>${input.operations.map(operationXml).join('')}</Message></Version>`;
    const signature = signQueryVersion(input.secret, input.order, version);
    messages = `<Messages>${version}<Signature>${signature}</Signature></Messages>`;
  }
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" ` +
    'xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<soapenv:Body><p259:consultaOperacionesResponse xmlns:p259="${WEB_NS}">` +
    `<consultaOperacionesReturn>${escapeXml(messages)}</consultaOperacionesReturn>` +
    '</p259:consultaOperacionesResponse></soapenv:Body></soapenv:Envelope>'
  );
}
