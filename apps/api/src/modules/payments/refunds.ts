import { classifyOperation, type QueryAnswer } from '@portal/redsys';
import type { Database, SqlQuery } from '../../db/database.ts';
import { inSavepoint } from '../../db/savepoint.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { RedsysClient } from './redsys-client.ts';
import { retryDelaySeconds } from '../webhooks/retry.ts';
import { createNotification } from '../notifications/service.ts';
import { webhookEvents } from '../webhooks/events.ts';
import {
  createPaymentRepository,
  tenantsWithDueRefunds,
  type RefundRow,
  type TenantGatewayRow,
} from './repository.ts';

/** A refund of (part of) an authorised payment, on its original order (Redsys type 3). */
export type RefundRequest = {
  order: string;
  amountCents: number;
  terminal: string;
  merchantCode: string;
};

/**
 * What the gateway answered: refunded (Ds_Response 0900), or refused with its code. `retryable`
 * says whether asking again may succeed (the gateway unreachable, busy); a refusal that cannot
 * change (no such operation, amount over what was paid) is not.
 */
export type RefundAnswer =
  { ok: true; authorisationCode: string | null } | { ok: false; code: string; retryable: boolean };

/**
 * Answers after which the refund may or may not have been made: no answer in time, a connection
 * cut once the request may have gone out, a proxy's or the gateway's error page (500, 502, 504)
 * after it may have been applied. Refunds of one order add up at Redsys, so such a refund is never
 * sent again blindly: the operator checks it. Only what provably never reached the gateway (no
 * connection, 503, 429) is sent again by itself.
 */
const ambiguousCodes = new Set([
  'timeout',
  'connection_lost',
  'outcome_unknown',
  'http_500',
  'http_502',
  'http_504',
  // An answer that cannot be read or trusted (an HTML page, a signature that does not verify)
  // came after the request reached the gateway: it may have been refunded.
  'malformed',
  'bad_signature',
]);

/** Refunds sent, and asked about, through the gateway client (redsys-client.ts). */
export const refundsThrough = (
  client: Pick<RedsysClient, 'refund' | 'queryOrder'>,
): { refundGateway: RefundGateway; queryRefunds: RefundQuery } => ({
  refundGateway: (gateway, request) => client.refund(gateway, request),
  queryRefunds: (gateway, { order, merchantCode, terminal }) =>
    client.queryOrder(gateway, order, { transactionType: '3', merchantCode, terminal }),
});

/** Sends one refund to the tenant's gateway (trataPeticionREST on Redsys or the simulator). */
export type RefundGateway = (
  gateway: TenantGatewayRow,
  request: RefundRequest,
) => Promise<RefundAnswer>;

/**
 * Asks the tenant's gateway for the refunds (type 3) of one order (consultaOperaciones,
 * redsys-client.ts `queryOrder`): a signed answer, or a failure (`{ kind: 'failed' }`).
 */
export type RefundQuery = (
  gateway: TenantGatewayRow,
  request: Omit<RefundRequest, 'amountCents'>,
) => Promise<QueryAnswer | { kind: 'failed' }>;

export type RefundLimits = {
  /** Failed sends before a refund is left for the operator. */
  maxAttempts: number;
  retryBaseSeconds: number;
  retryMaxSeconds: number;
  /** How long a sender holds a refund it is sending; longer than the gateway call's timeout. */
  leaseSeconds: number;
  /** Refunds of one tenant taken per run. */
  batchSize: number;
  /**
   * How long after a send of unknown outcome Redsys is asked whether it refunded (the call had
   * long ended there), and then how often, for `unknownRefundCheckDays`.
   */
  checkAfterSeconds: number;
};

/** Eight tries over about ten hours: 5, 10, 20 ... minutes apart (at most 6 hours). */
export const defaultRefundLimits: RefundLimits = {
  maxAttempts: 8,
  retryBaseSeconds: 300,
  retryMaxSeconds: 6 * 3600,
  leaseSeconds: 300,
  batchSize: 10,
  checkAfterSeconds: 900,
};

export type RefundResult = {
  refundId: string;
  outcome: 'refunded' | 'retry' | 'review';
  code?: string;
};

/**
 * The refund outbox: the overpayments the payment service recorded (`payment_refunds`, status
 * pending) are sent to Redsys here, outside any transaction, each under a lease. Money leaves only
 * once: a refund is marked `sending` (and its attempt counted) before the call; a call whose
 * outcome was never recorded (the process died), or that got no clear answer, is NOT sent again
 * blindly: it waits for the operator as `outcome_unknown`, and meanwhile Redsys is asked about the
 * order's refunds every `checkAfterSeconds` (`checkUnknown`): a refund of that amount it made
 * records it refunded; none at all sends it again; anything else leaves it to the operator, who
 * checks the Redsys back office. A refusal the gateway
 * may change its mind about is retried with backoff; after `maxAttempts`, or a refusal that cannot
 * change, the refund waits for the operator (npm run admin -- overpayments list) and a
 * `payment.refund_failed` webhook event says so. Nothing is dropped.
 */
/**
 * Redsys refused the request's signature (SIS0042, an unsigned error: nothing was done). An answer
 * that does not verify is not such a refusal: the refund may have been made (ambiguousCodes).
 */
const signatureRefused = new Set(['SIS0042']);

/** A minute of Madrid's clock, as Redsys' query answers give it: "2026-11-30 01:07". */
const madridMinute = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
/** Redsys' clock and ours may differ a little: a refund this much older may still be ours. */
const clockSlackMs = 5 * 60_000;

/**
 * What Redsys' answer about an order's refunds says of `refund`: made (an authorised refund of
 * its amount, made after the refund was recorded here: one made by hand before is another), never
 * made (no refund of the order at all, or only refused ones), or not provable (null: a refund of
 * another amount or time, one not final, no trustworthy answer).
 */
export function refundStateOf(
  answer: QueryAnswer | { kind: 'failed' },
  refund: Pick<RefundRow, 'order_number' | 'amount_cents' | 'created_at'>,
): { made: true; authorisationCode: string | null } | { made: false } | null {
  if (answer.kind === 'not_found') return { made: false };
  if (answer.kind !== 'ok') return null;
  const refunds = answer.operations.filter(
    (operation) => operation.order === refund.order_number && operation.transactionType === '3',
  );
  const since = madridMinute.format(new Date(refund.created_at.getTime() - clockSlackMs));
  const made = refunds.find(
    (operation) =>
      classifyOperation(operation) === 'approved' &&
      operation.amountCents === refund.amount_cents &&
      /^\d{4}-\d{2}-\d{2}$/.test(operation.date) &&
      /^\d{2}:\d{2}/.test(operation.hour) &&
      `${operation.date} ${operation.hour.slice(0, 5)}` >= since,
  );
  if (made) return { made: true, authorisationCode: made.authorisationCode ?? null };
  if (refunds.every((operation) => classifyOperation(operation) === 'denied')) {
    return { made: false };
  }
  return null;
}

export function createRefunder(deps: {
  db: Database;
  secretBox: SecretBox;
  refundGateway: RefundGateway;
  queryRefunds: RefundQuery;
  limits?: Partial<RefundLimits>;
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  /** Jitter of the retry schedule (tests pin it). */
  random?: () => number;
}) {
  const limits = { ...defaultRefundLimits, ...deps.limits };
  const repository = createPaymentRepository(deps.secretBox);

  async function send(gateway: TenantGatewayRow | undefined, refund: RefundRow) {
    if (!gateway?.redsys_secret_key || !gateway.redsys_merchant_code) {
      return { ok: false as const, code: 'not_configured', retryable: false, configured: false };
    }
    try {
      const answer = await deps.refundGateway(gateway, {
        order: refund.order_number,
        amountCents: refund.amount_cents,
        terminal: refund.terminal,
        merchantCode: refund.merchant_code,
      });
      return { ...answer, configured: true };
    } catch (error) {
      // The adapter answers every expected failure; an exception leaves it unknown whether the
      // gateway refunded, so it is never retried blindly.
      deps.log.error({ err: error, refundId: refund.id }, 'refund call failed unexpectedly');
      return { ok: false as const, code: 'outcome_unknown', retryable: false, configured: true };
    }
  }

  async function refundTenant(tenantId: string): Promise<RefundResult[]> {
    const { gateway, expired } = await deps.db.withTenant(tenantId, async (sql) => {
      const leftForOperator = await repository.expireRefundLeases(sql, limits.checkAfterSeconds);
      for (const refund of leftForOperator)
        await webhookEvents.refund(sql, refund.id, 'payment.refund_failed');
      return { expired: leftForOperator, gateway: await repository.gateway(sql) };
    });
    const results: RefundResult[] = [];
    for (const refund of expired) {
      deps.log.warn(
        { tenantId, refundId: refund.id, order: refund.order_number },
        'ALERT: a refund was being sent when its sender stopped: left for the operator',
      );
      results.push({ refundId: refund.id, outcome: 'review', code: 'outcome_unknown' });
    }
    // First: one Redsys says it never made is sent in this same run.
    results.push(...(await checkUnknown(tenantId, gateway)));
    const claimed = await deps.db.withTenant(tenantId, (sql) =>
      repository.claimDueRefunds(sql, {
        limit: limits.batchSize,
        leaseSeconds: limits.leaseSeconds,
      }),
    );
    for (const refund of claimed) {
      // A refund goes to the merchant that took the payment, also after the operator changed the
      // tenant's (migration 032): another merchant has no such order.
      const ofOrder =
        gateway &&
        (await deps.db.readTenant(tenantId, (sql) =>
          repository.gatewayOfOrder(sql, gateway, refund.merchant_code, refund.order_number),
        ));
      let answer = await send(ofOrder, refund);
      // Redsys refused the old merchant's key (SIS0042: it rotated the key since, for the same
      // code): a refused signature means nothing was done, so the current key may try once.
      if (
        !answer.ok &&
        signatureRefused.has(answer.code) &&
        ofOrder?.redsys_secret_key !== gateway?.redsys_secret_key
      ) {
        answer = await send(gateway, refund);
      }
      const result = await deps.db.withTenant(tenantId, async (sql): Promise<RefundResult> => {
        if (answer.ok) {
          await recordRefunded(sql, tenantId, refund, answer.authorisationCode);
          return { refundId: refund.id, outcome: 'refunded' };
        }
        const code = answer.code.slice(0, 40);
        const ambiguous = ambiguousCodes.has(code);
        if (answer.retryable && !ambiguous && refund.attempts < limits.maxAttempts) {
          await repository.recordRefundOutcome(sql, refund.id, {
            status: 'pending',
            code,
            retryInSeconds: retryDelaySeconds(
              refund.attempts,
              { baseSeconds: limits.retryBaseSeconds, maxSeconds: limits.retryMaxSeconds },
              deps.random,
            ),
          });
          return { refundId: refund.id, outcome: 'retry', code };
        }
        const left = await repository.recordRefundOutcome(sql, refund.id, {
          status: 'review',
          code,
          // A refund that may have been made is asked about later (checkUnknown).
          checkInSeconds: ambiguous ? limits.checkAfterSeconds : 0,
          reason: !answer.configured
            ? 'not_configured'
            : ambiguous
              ? 'outcome_unknown'
              : answer.retryable
                ? 'failed_attempts'
                : 'refused',
        });
        if (left) await webhookEvents.refund(sql, refund.id, 'payment.refund_failed');
        return { refundId: refund.id, outcome: 'review', code };
      });
      if (result.outcome === 'review') {
        deps.log.warn(
          { tenantId, refundId: refund.id, order: refund.order_number, code: result.code },
          'ALERT: refund not made: left for the operator (npm run admin -- overpayments list)',
        );
      }
      results.push(result);
    }
    return results;
  }

  /** Redsys refunded it: recorded once, announced by webhook, the customer told. */
  async function recordRefunded(
    sql: SqlQuery,
    tenantId: string,
    refund: RefundRow,
    authorisationCode: string | null,
  ): Promise<boolean> {
    const recorded = await repository.recordRefundOutcome(sql, refund.id, {
      status: 'refunded',
      authorisation: authorisationCode?.slice(0, 12) || null,
    });
    if (!recorded) return false;
    await webhookEvents.refund(sql, refund.id, 'payment.refunded');
    // The money went back: the customer's notice must never undo recording it.
    const told = await inSavepoint(sql, () => notifyRefunded(sql, refund));
    if (!told.ok) {
      deps.log.error(
        { err: told.error, tenantId, refundId: refund.id },
        "ALERT: the customer's refund notice failed; the refund is recorded",
      );
    }
    return true;
  }

  /** Asks Redsys about the tenant's refunds of unknown outcome whose check is due. */
  async function checkUnknown(
    tenantId: string,
    gateway: TenantGatewayRow | undefined,
  ): Promise<RefundResult[]> {
    if (!gateway?.redsys_secret_key || !gateway.redsys_merchant_code) return [];
    const due = await deps.db.withTenant(tenantId, (sql) =>
      repository.claimUnknownRefunds(sql, {
        limit: limits.batchSize,
        checkInSeconds: limits.checkAfterSeconds,
      }),
    );
    const results: RefundResult[] = [];
    for (const refund of due) {
      const ofOrder = await deps.db.readTenant(tenantId, (sql) =>
        repository.gatewayOfOrder(sql, gateway, refund.merchant_code, refund.order_number),
      );
      let state: ReturnType<typeof refundStateOf>;
      try {
        const request = {
          order: refund.order_number,
          terminal: refund.terminal,
          merchantCode: refund.merchant_code,
        };
        state = refundStateOf(await deps.queryRefunds(ofOrder, request), refund);
      } catch (error) {
        deps.log.error({ err: error, refundId: refund.id }, 'refund query failed unexpectedly');
        state = null;
      }
      const context = { tenantId, refundId: refund.id, order: refund.order_number };
      if (!state) {
        results.push({ refundId: refund.id, outcome: 'review', code: 'outcome_unknown' });
        continue;
      }
      if (state.made) {
        const { authorisationCode } = state;
        await deps.db.withTenant(tenantId, (sql) =>
          recordRefunded(sql, tenantId, refund, authorisationCode),
        );
        deps.log.warn(context, 'a refund of unknown outcome was made, Redsys says: recorded');
        results.push({ refundId: refund.id, outcome: 'refunded' });
        continue;
      }
      const now = await deps.db.withTenant(tenantId, (sql) =>
        repository.refundNeverMade(sql, refund.id, limits.maxAttempts),
      );
      deps.log.warn(
        { ...context, status: now },
        'a refund of unknown outcome was never made, Redsys says: sent again, or failed',
      );
      // One sent again has its result below, where it is sent.
      if (now === 'review') {
        results.push({ refundId: refund.id, outcome: 'review', code: 'failed_attempts' });
      }
    }
    return results;
  }

  async function notifyRefunded(sql: SqlQuery, refund: RefundRow) {
    const invoices = await repository.attemptInvoices(sql, refund.attempt_id);
    await createNotification(sql, {
      customerId: refund.customer_id,
      type: 'payment_refunded',
      params: { payment_id: refund.attempt_id, refund_cents: refund.amount_cents, invoices },
    });
  }

  return {
    refundTenant,
    /** Every tenant's due refunds; each tenant's work runs under its row-level security. */
    async sendDue(): Promise<RefundResult[]> {
      const tenants = await deps.db.withOwner((sql) => tenantsWithDueRefunds(sql));
      const all: RefundResult[] = [];
      for (const tenantId of tenants) {
        try {
          all.push(...(await refundTenant(tenantId)));
        } catch (error) {
          deps.log.error({ err: error, tenantId }, 'refund outbox failed for a tenant');
        }
      }
      return all;
    },
  };
}
