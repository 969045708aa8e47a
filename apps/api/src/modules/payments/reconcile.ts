import { classifyOperation, QUERY_BAD_SIGNATURE, type QueryOperation } from '@portal/redsys';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Database } from '../../db/database.ts';
import type { RedsysClient } from './redsys-client.ts';
import { createTenantRepository } from '../tenants/repository.ts';
import { createPaymentRepository, type AttemptRow } from './repository.ts';
import type { NotificationOutcome, PaymentService } from './service.ts';

export type ReconcileResult = {
  attemptId: string;
  outcome:
    | NotificationOutcome
    /** The gateway never received the order (XML0024): the customer never reached it. */
    | 'released'
    /** Still not final after `releaseAfterMinutes` (or the gateway could not tell): let go. */
    | 'expired'
    /** The customer is still on the card or 3DS page: asked again on a later run. */
    | 'in_progress'
    /** No trustworthy answer (network, timeout, bad signature, error code): asked again later. */
    | 'unanswered'
    /** Settling it failed here (logged as an ALERT): asked again on the next run. */
    | 'error';
};

/**
 * Settles payments left pending (no notification after `afterMinutes`) by asking the tenant's
 * gateway through the SOAP query service, for every environment alike (simulator, Redsys test or
 * production host; redsys-client.ts). Redsys notifies nothing when the customer never enters a
 * card or closes the page, so asking is the only way to learn the outcome:
 * - final and authorised: paid, through the same checks as a notification (`settleFromQuery`);
 * - final and denied: failed, instalments freed;
 * - never received (XML0024): released, instalments freed;
 * - not final (S/P/A, 9998/9999), unknown states, or no trustworthy answer: left pending, until
 *   the attempt is older than `releaseAfterMinutes`, then released all the same, so an abandoned
 *   checkout never keeps its instalments locked. An authorisation that still arrives later is
 *   honoured by the late-authorisation path of the payment service;
 * - and one released so, without a final answer, is asked about again every `recheckMinutes` for
 *   `recheckDays` (migration 033): Redsys sends no notification of a merchant-initiated charge
 *   (auto-pay), so a charge it took while its query service did not answer would otherwise be
 *   recorded nowhere, and charged again by the next auto-pay try. A final answer settles it through
 *   the same late-authorisation path; past the days, an ALERT says to check the back office.
 */
export const recheckMinutes = 15;
export const recheckDays = 7;

export function createReconciler(deps: {
  db: Database;
  secretBox: SecretBox;
  service: PaymentService;
  client: RedsysClient;
  afterMinutes: number;
  /** Age after which a pending attempt is released whatever the gateway says (never below afterMinutes). */
  releaseAfterMinutes: number;
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  now?: () => number;
}) {
  const repository = createPaymentRepository(deps.secretBox);
  const now = deps.now ?? Date.now;
  const releaseAfterMs = Math.max(deps.releaseAfterMinutes, deps.afterMinutes) * 60_000;

  const transactionTypeOf = (attempt: AttemptRow) =>
    attempt.kind === 'card_verification' ? '7' : '0';

  /**
   * The attempt's operation in a query answer: an authorised one before any other, since an order
   * may list a refused repeat (0913) beside the payment that went through.
   */
  const operationOf = (operations: readonly QueryOperation[], attempt: AttemptRow) => {
    const mine = operations.filter(
      (candidate) =>
        candidate.order === attempt.order_number &&
        candidate.transactionType === transactionTypeOf(attempt),
    );
    return mine.find((candidate) => classifyOperation(candidate) === 'approved') ?? mine[0];
  };

  /** The parameters a notification would carry, built from the query's operation. */
  function paramsOf(operation: QueryOperation): Record<string, string> {
    return {
      Ds_Order: operation.order,
      Ds_MerchantCode: operation.merchantCode,
      Ds_Terminal: operation.terminal,
      Ds_Amount: String(operation.amountCents),
      Ds_Currency: operation.currency,
      Ds_Response: operation.response ?? '',
      Ds_TransactionType: operation.transactionType,
      Ds_AuthorisationCode: operation.authorisationCode ?? '',
      // The day the gateway charged (Madrid), which the payment is dated by, however late found.
      Ds_Date: operation.date,
      Ds_Hour: operation.hour,
    };
  }

  async function reconcileTenant(tenantId: string): Promise<ReconcileResult[]> {
    const { gateway, stale, rechecks } = await deps.db.withTenant(tenantId, async (sql) => {
      const gateway = await repository.gateway(sql);
      if (!gateway) return { gateway, stale: [], rechecks: [] };
      for (const lost of await repository.abandonRechecks(sql, recheckDays)) {
        deps.log.error(
          { tenantId, attemptId: lost.id, order: lost.order_number },
          `ALERT: the gateway gave no final answer about a released payment in ${recheckDays} days: check the order in the Redsys back office`,
        );
      }
      return {
        gateway,
        stale: await repository.stalePending(sql, deps.afterMinutes),
        rechecks: await repository.dueRechecks(sql, {
          limit: 50,
          nextInSeconds: recheckMinutes * 60,
          days: recheckDays,
        }),
      };
    });
    if (!gateway || stale.length + rechecks.length === 0) return [];
    const results: ReconcileResult[] = [];

    /** Past the bound, let go; asked about again later unless the gateway's answer was final. */
    async function letGoIfOld(
      attempt: AttemptRow,
      otherwise: ReconcileResult['outcome'],
      { final = false } = {},
    ) {
      if (now() - attempt.created_at.getTime() < releaseAfterMs) return otherwise;
      await deps.service.releaseAttempt(
        tenantId,
        attempt.id,
        final ? {} : { recheckInSeconds: recheckMinutes * 60 },
      );
      return 'expired' as const;
    }

    for (const attempt of stale) {
      // One attempt that cannot be settled (a fault of ours) never keeps the others, nor the
      // other tenants, from being reconciled: it is logged and asked about again on the next run.
      try {
        results.push({ attemptId: attempt.id, outcome: await reconcileAttempt(attempt) });
      } catch (error) {
        deps.log.error(
          { err: error, tenantId, attemptId: attempt.id, order: attempt.order_number },
          'ALERT: reconciling a payment attempt failed: asked again on the next run',
        );
        results.push({ attemptId: attempt.id, outcome: 'error' });
      }
    }
    for (const attempt of rechecks) {
      try {
        results.push({ attemptId: attempt.id, outcome: await recheckAttempt(attempt) });
      } catch (error) {
        deps.log.error(
          { err: error, tenantId, attemptId: attempt.id, order: attempt.order_number },
          'ALERT: asking again about a released payment failed: asked again later',
        );
        results.push({ attemptId: attempt.id, outcome: 'error' });
      }
    }
    return results;

    /** The gateway's answer about the attempt's order, with its key and, if refused, the current one. */
    async function ask(attempt: AttemptRow) {
      if (!gateway) return { kind: 'failed' as const, reason: 'not_configured' as const };
      const query = {
        transactionType: transactionTypeOf(attempt),
        merchantCode: attempt.merchant_code,
        terminal: attempt.terminal,
      };
      // Asked with the merchant the order was started under (the operator may have changed the
      // tenant's since: migration 032); if Redsys refuses that key (a key it has rotated since),
      // with the current one.
      const ofOrder = await deps.db.readTenant(tenantId, (sql) =>
        repository.gatewayOfOrder(sql, gateway, attempt.merchant_code, attempt.order_number),
      );
      const answer = await deps.client.queryOrder(ofOrder, attempt.order_number, query);
      const otherKey = ofOrder.redsys_secret_key !== gateway.redsys_secret_key;
      if (otherKey && answer.kind === 'error' && answer.code === QUERY_BAD_SIGNATURE) {
        return deps.client.queryOrder(gateway, attempt.order_number, query);
      }
      return answer;
    }

    /** A released attempt asked about again: settled by a final answer, else asked later. */
    async function recheckAttempt(attempt: AttemptRow): Promise<ReconcileResult['outcome']> {
      const answer = await ask(attempt);
      const end = () =>
        deps.db.withTenant(tenantId, (sql) => repository.endRecheck(sql, attempt.id));
      if (answer.kind === 'not_found') {
        await end();
        return 'released';
      }
      if (answer.kind !== 'ok') return 'unanswered';
      const operation = operationOf(answer.operations, attempt);
      const state = operation ? classifyOperation(operation) : 'unknown';
      if (!operation || (state !== 'approved' && state !== 'denied')) return 'in_progress';
      const outcome = await deps.service.settleFromQuery(tenantId, paramsOf(operation));
      await end();
      if (state === 'approved') {
        deps.log.warn(
          { tenantId, order: attempt.order_number, outcome },
          'ALERT: a payment released without an answer was authorised, the gateway says: recorded',
        );
      }
      return outcome;
    }

    async function reconcileAttempt(attempt: AttemptRow): Promise<ReconcileResult['outcome']> {
      const answer = await ask(attempt);
      const context = { tenantId, order: attempt.order_number };
      let outcome: ReconcileResult['outcome'];
      if (answer.kind === 'not_found') {
        await deps.service.releaseAttempt(tenantId, attempt.id);
        outcome = 'released';
      } else if (answer.kind === 'ok') {
        const operation = operationOf(answer.operations, attempt);
        const state = operation ? classifyOperation(operation) : 'unknown';
        if (operation && (state === 'approved' || state === 'denied')) {
          outcome = await deps.service.settleFromQuery(tenantId, paramsOf(operation));
          if (outcome === 'mismatch' || outcome === 'unknown_order') {
            // A final answer that is not this attempt's (another amount, currency, merchant) never
            // settles it: past the bound it is let go like one that never got an answer, or it
            // would hold its instalments (and the 50 oldest the run asks about) for ever.
            deps.log.warn(
              { ...context, outcome },
              'ALERT: gateway query answer does not match the attempt',
            );
            outcome = await letGoIfOld(attempt, outcome, { final: true });
          }
        } else {
          if (state === 'unknown') {
            deps.log.warn(
              { ...context, state: operation?.state, response: operation?.response },
              'gateway query: operation in a state that is not provably final',
            );
          }
          outcome = await letGoIfOld(attempt, 'in_progress');
        }
      } else {
        const detail = answer.kind === 'error' ? { code: answer.code } : { reason: answer.reason };
        deps.log.warn({ ...context, ...detail }, 'ALERT: gateway query gave no usable answer');
        outcome = await letGoIfOld(attempt, 'unanswered');
      }
      return outcome;
    }
  }

  return {
    reconcileTenant,
    async reconcileAll(): Promise<ReconcileResult[]> {
      // Listing tenant ids is the only cross-tenant read; each tenant's work runs under its RLS.
      const tenants = await deps.db.withOwner((sql) => createTenantRepository().listIds(sql));
      const all: ReconcileResult[] = [];
      for (const id of tenants) {
        try {
          all.push(...(await reconcileTenant(id)));
        } catch (error) {
          deps.log.error({ err: error, tenantId: id }, 'ALERT: reconciling a tenant failed');
        }
      }
      return all;
    },
  };
}
