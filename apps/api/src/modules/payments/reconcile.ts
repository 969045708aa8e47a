import { createPaymentRequest, isSignatureVersion, readNotification } from '@portal/redsys';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Database } from '../../db/database.ts';
import { createPaymentRepository, type AttemptRow, type TenantGatewayRow } from './repository.ts';
import type { NotificationOutcome, PaymentService } from './service.ts';

/** Ds_Response of an order whose card page or 3DS challenge is still open. */
const inProgress = new Set(['9998', '9999']);
/** The query service's answer for an order it never received (the customer never got there). */
const neverReceived = 'XML0024';

export type ReconcileResult = {
  attemptId: string;
  outcome: NotificationOutcome | 'released' | 'in_progress' | 'unsupported';
};

/**
 * Settles payments left pending (no notification after `afterMinutes`) by asking the gateway for
 * the order's outcome. Implemented for the local simulator's query endpoint; a tenant on Redsys'
 * real hosts needs an adapter for Redsys' query service (REST "consultas" or SOAP), not written
 * yet, so its stale attempts are reported and left for the notification retries.
 */
export function createReconciler(deps: {
  db: Database;
  secretBox: SecretBox;
  service: PaymentService;
  simulatorUrl: string;
  afterMinutes: number;
  log: { warn: (obj: object, msg: string) => void };
}) {
  const repository = createPaymentRepository(deps.secretBox);

  async function ask(
    gateway: TenantGatewayRow,
    attempt: AttemptRow,
  ): Promise<Record<string, unknown> | null> {
    const version = gateway.redsys_signature_versions.find(isSignatureVersion);
    if (!version || !gateway.redsys_secret_key) return null;
    const request = createPaymentRequest({
      version,
      secret: gateway.redsys_secret_key,
      params: {
        Ds_Merchant_Order: attempt.order_number,
        Ds_Merchant_MerchantCode: attempt.merchant_code,
        Ds_Merchant_Terminal: attempt.terminal,
      },
    });
    const response = await fetch(`${deps.simulatorUrl}/sis/rest/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(10_000),
    });
    return (await response.json()) as Record<string, unknown>;
  }

  async function reconcileTenant(tenantId: string): Promise<ReconcileResult[]> {
    const { gateway, stale } = await deps.db.withTenant(tenantId, async (sql) => ({
      gateway: await repository.gateway(sql),
      stale: await repository.stalePending(sql, deps.afterMinutes),
    }));
    if (!gateway || stale.length === 0) return [];
    const results: ReconcileResult[] = [];
    for (const attempt of stale) {
      if (gateway.redsys_environment !== 'simulator') {
        deps.log.warn(
          { tenantId, order: attempt.order_number },
          'stale payment: no query adapter for Redsys hosts',
        );
        results.push({ attemptId: attempt.id, outcome: 'unsupported' });
        continue;
      }
      const answer = await ask(gateway, attempt);
      if (!answer) continue;
      if (answer.errorCode === neverReceived) {
        await deps.service.releaseAttempt(tenantId, attempt.id);
        results.push({ attemptId: attempt.id, outcome: 'released' });
        continue;
      }
      const read = readNotification(
        answer,
        gateway.redsys_secret_key ?? '',
        gateway.redsys_signature_versions.filter(isSignatureVersion),
      );
      if (!read.ok) {
        deps.log.warn(
          { tenantId, order: attempt.order_number, reason: read.reason },
          'ALERT: gateway query answer refused',
        );
        continue;
      }
      if (inProgress.has(read.params.Ds_Response ?? '')) {
        results.push({ attemptId: attempt.id, outcome: 'in_progress' });
        continue;
      }
      results.push({
        attemptId: attempt.id,
        outcome: await deps.service.settleFromQuery(tenantId, read.params),
      });
    }
    return results;
  }

  return {
    reconcileTenant,
    async reconcileAll(): Promise<ReconcileResult[]> {
      // Listing tenant ids is the only cross-tenant read; each tenant's work runs under its RLS.
      const tenants = await deps.db.withOwner((sql) =>
        sql.query<{ id: string }>('SELECT id FROM tenants ORDER BY id'),
      );
      const all: ReconcileResult[] = [];
      for (const { id } of tenants) all.push(...(await reconcileTenant(id)));
      return all;
    },
  };
}
