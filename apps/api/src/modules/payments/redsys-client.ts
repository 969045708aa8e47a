import {
  QUERY_SERVICE_PATH,
  REST_SERVICE_PATH,
  createMitChargeRequest,
  createQueryRequest,
  createRefundRequest,
  readMitChargeAnswer,
  readQueryAnswer,
  readRefundAnswer,
  type QueryAnswer,
  type QueryMessage,
} from '@portal/redsys';
import { gatewayOrigin } from './gateway-origin.ts';
import type { TenantGatewayRow } from './repository.ts';

/*
 * The one server-to-server client of a tenant's card gateway, whatever its environment: the local
 * simulator, Redsys' test host or its production host all answer the same requests at the same
 * paths (SOAP `consultaOperaciones`, REST `trataPeticionREST`); only the origin differs
 * (gatewayOrigin). Every call has a timeout and ends in a typed result, never a throw.
 */

/** Why a call gave no trustworthy answer. */
export type GatewayFailureReason =
  /** The tenant has no merchant code, terminal or key. */
  | 'not_configured'
  /** No connection (refused, DNS, TLS...): nothing reached the gateway. */
  | 'network'
  /**
   * The connection failed once it was open (reset, closed before the answer): the request may
   * have reached the gateway and been applied.
   */
  | 'connection_lost'
  /** No answer in time: the request may or may not have been applied. */
  | 'timeout'
  /** An HTTP status other than 200. */
  | 'http'
  /** The answer's signature did not verify with the tenant's key: refused, never acted on. */
  | 'bad_signature'
  /** An answer that is not the documented shape (HTML error page, SOAP fault, junk). */
  | 'malformed';

export type GatewayFailure = { kind: 'failed'; reason: GatewayFailureReason; status?: number };
export type QueryOrderResult = QueryAnswer | GatewayFailure;

export type RefundInput = {
  /** The ORIGINAL payment's order: Redsys refunds against it. */
  order: string;
  amountCents: number;
  terminal: string;
  merchantCode: string;
};

/**
 * `ok` only on Ds_Response 0900. Otherwise `code` is Redsys' own (Ds_Response such as "0950", or
 * "SIS0057" from an unsigned error), or one of `network`, `timeout`, `connection_lost`,
 * `http_<status>`, `bad_signature`, `malformed`, `not_configured`. `retryable` is true only when
 * trying again later may succeed (`network`, `timeout`, `connection_lost`, HTTP 429/5xx). Of
 * those, only `network`, 429 and 503 say that nothing was applied; a `timeout`, a
 * `connection_lost` or another 5xx is ambiguous: the refund may have been applied, and refunds of
 * one order add up, so the refund outbox leaves it for the operator (refunds.ts).
 */
export type RefundResult =
  { ok: true; authorisationCode: string | null } | { ok: false; code: string; retryable: boolean };

export type MitChargeInput = {
  /** A new order for this charge (the attempt's). */
  order: string;
  amountCents: number;
  terminal: string;
  merchantCode: string;
  /** The saved card's Ds_Merchant_Identifier and Ds_Merchant_Cof_Txnid. */
  identifier: string;
  cofTxnid: string;
};

/**
 * A merchant-initiated charge's outcome. `answered`: Redsys' signed answer (authorised or not,
 * its parameters read like a notification's). `refused`: its unsigned SIS error, no operation.
 * `unknown`: no trustworthy answer (timeout, network, bad signature...): the charge may or may not
 * have happened; the reconciliation asks the query service about the order later.
 */
export type MitChargeResult =
  | { kind: 'answered'; authorised: boolean; code: string; params: Record<string, string> }
  | { kind: 'refused'; code: string }
  | { kind: 'unknown'; reason: string };

export type RedsysClientOptions = {
  /** Origin of the local simulator, for tenants in the 'simulator' environment. */
  simulatorUrl: string;
  /** Per-call timeout (default 15 s; Redsys has been seen to take several seconds). */
  timeoutMs?: number;
  /**
   * Other origins for Redsys' test and production hosts. Only tests set it, to stand a local
   * server in for a Redsys host; every deployment uses the real hosts (gateway-origin.ts).
   */
  hosts?: Partial<Record<'test' | 'production', string>>;
};

/** The largest answer read: a Monitor answer is about 600 bytes per operation. */
const MAX_ANSWER_BYTES = 512 * 1024;

type Posted = { ok: true; text: string } | { ok: false; failure: GatewayFailure };

function failed(reason: GatewayFailureReason, status?: number): GatewayFailure {
  return status === undefined ? { kind: 'failed', reason } : { kind: 'failed', reason, status };
}

async function readCapped(response: Response): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function post(
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<Posted> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal,
      redirect: 'error',
    });
    const text = await readCapped(response);
    if (response.status !== 200) return { ok: false, failure: failed('http', response.status) };
    if (text === null) return { ok: false, failure: failed('malformed') };
    return { ok: true, text };
  } catch (error) {
    const timedOut = signal.aborted || (error instanceof Error && error.name === 'TimeoutError');
    if (timedOut) return { ok: false, failure: failed('timeout') };
    return { ok: false, failure: failed(neverConnected(error) ? 'network' : 'connection_lost') };
  }
}

/** Errors of a connection that never opened (fetch's `cause`): nothing was sent. */
const connectCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Whether fetch failed before the request could go out: no connection, a TLS certificate refused
 * in the handshake, or a port fetch will not connect to at all ("bad port"). Anything else (a
 * reset, a socket closed before the answer: undici's UND_ERR_SOCKET) may come after the gateway
 * got the request.
 */
function neverConnected(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  if (!(cause instanceof Error)) return false;
  const code = 'code' in cause ? String(cause.code) : '';
  return (
    connectCodes.has(code) ||
    /^(ERR_TLS_CERT|CERT_|UNABLE_TO_)|SELF_SIGNED/.test(code) ||
    (code === '' && cause.message === 'bad port')
  );
}

type Credentials = { merchantCode: string; terminal: string; secret: string };

function credentials(gateway: TenantGatewayRow): Credentials | null {
  const { redsys_merchant_code: merchantCode, redsys_terminal: terminal } = gateway;
  const secret = gateway.redsys_secret_key;
  if (!merchantCode || !terminal || !secret) return null;
  return { merchantCode, terminal, secret };
}

export function createRedsysClient(options: RedsysClientOptions) {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const origin = (gateway: TenantGatewayRow) => {
    const environment = gateway.redsys_environment;
    const host = environment === 'simulator' ? undefined : options.hosts?.[environment];
    return (host ?? gatewayOrigin(environment, options.simulatorUrl)).replace(/\/+$/, '');
  };

  return {
    /**
     * Asks `consultaOperaciones` about one order: a `Transaction` query for one transaction type
     * (default "0", the payment), or `Monitor` for every operation of the order (payment and
     * refunds). The answer's signature is checked with the tenant's key (an answer about an
     * operation must carry one; an error such as XML0024 may not).
     * `merchantCode`/`terminal` default to the tenant's (pass the attempt's own when they differ).
     */
    async queryOrder(
      gateway: TenantGatewayRow,
      order: string,
      query: {
        message?: QueryMessage;
        transactionType?: string;
        merchantCode?: string;
        terminal?: string;
      } = {},
    ): Promise<QueryOrderResult> {
      const own = credentials(gateway);
      if (!own) return failed('not_configured');
      let request;
      try {
        request = createQueryRequest({
          message: query.message ?? 'Transaction',
          merchantCode: query.merchantCode ?? own.merchantCode,
          terminal: query.terminal ?? own.terminal,
          order,
          transactionType: query.transactionType ?? '0',
          secret: own.secret,
        });
      } catch {
        // An order or key that cannot be written into a query (Redsys would answer XML0015).
        return failed('not_configured');
      }
      const posted = await post(
        `${origin(gateway)}${QUERY_SERVICE_PATH}`,
        { headers: request.headers, body: request.body },
        timeoutMs,
      );
      if (!posted.ok) return posted.failure;
      const answer = readQueryAnswer(posted.text, { secret: own.secret, order });
      if (answer.kind === 'bad_signature') return failed('bad_signature');
      if (answer.kind === 'malformed') return failed('malformed');
      return answer;
    },

    /** A refund (type 3) of `amountCents` on the original order, through `trataPeticionREST`. */
    async refund(gateway: TenantGatewayRow, input: RefundInput): Promise<RefundResult> {
      const own = credentials(gateway);
      if (!own) return { ok: false, code: 'not_configured', retryable: false };
      let body;
      try {
        body = createRefundRequest({
          secret: own.secret,
          order: input.order,
          merchantCode: input.merchantCode,
          terminal: input.terminal,
          amountCents: input.amountCents,
        });
      } catch {
        return { ok: false, code: 'not_configured', retryable: false };
      }
      const posted = await post(
        `${origin(gateway)}${REST_SERVICE_PATH}`,
        {
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        },
        timeoutMs,
      );
      if (!posted.ok) {
        const { reason, status } = posted.failure;
        if (reason === 'http') {
          const retryable = status === 429 || (status !== undefined && status >= 500);
          return { ok: false, code: `http_${status ?? 0}`, retryable };
        }
        // A timeout or a lost connection may have refunded: retryable, and ambiguous (refunds.ts
        // leaves those for the operator instead of sending them again).
        return {
          ok: false,
          code: reason,
          retryable: reason === 'network' || reason === 'timeout' || reason === 'connection_lost',
        };
      }
      let json: unknown;
      try {
        json = JSON.parse(posted.text);
      } catch {
        return { ok: false, code: 'malformed', retryable: false };
      }
      const answer = readRefundAnswer(json, { secret: own.secret, order: input.order });
      switch (answer.kind) {
        case 'refunded':
          return { ok: true, authorisationCode: answer.authorisationCode };
        case 'refused':
        case 'error':
          return { ok: false, code: answer.code, retryable: false };
        case 'bad_signature':
          return { ok: false, code: 'bad_signature', retryable: false };
        case 'malformed':
          return { ok: false, code: 'malformed', retryable: false };
      }
    },

    /**
     * A merchant-initiated charge of a card on file (auto-pay) through `trataPeticionREST`: type 0
     * on a new order with the card's reference, COF data and the MIT exemption (redsys-notes §4.2).
     */
    async mitCharge(gateway: TenantGatewayRow, input: MitChargeInput): Promise<MitChargeResult> {
      const own = credentials(gateway);
      if (!own) return { kind: 'refused', code: 'not_configured' };
      let body;
      try {
        body = createMitChargeRequest({ secret: own.secret, ...input });
      } catch {
        return { kind: 'refused', code: 'not_configured' };
      }
      const posted = await post(
        `${origin(gateway)}${REST_SERVICE_PATH}`,
        {
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        },
        timeoutMs,
      );
      if (!posted.ok) {
        const { reason, status } = posted.failure;
        return { kind: 'unknown', reason: reason === 'http' ? `http_${status ?? 0}` : reason };
      }
      let json: unknown;
      try {
        json = JSON.parse(posted.text);
      } catch {
        return { kind: 'unknown', reason: 'malformed' };
      }
      const answer = readMitChargeAnswer(json, { secret: own.secret, order: input.order });
      switch (answer.kind) {
        case 'authorised':
          return { kind: 'answered', authorised: true, code: answer.code, params: answer.params };
        case 'declined':
          return { kind: 'answered', authorised: false, code: answer.code, params: answer.params };
        case 'error':
          return { kind: 'refused', code: answer.code };
        case 'bad_signature':
          return { kind: 'unknown', reason: 'bad_signature' };
        case 'malformed':
          return { kind: 'unknown', reason: 'malformed' };
      }
    },
  };
}

export type RedsysClient = ReturnType<typeof createRedsysClient>;
