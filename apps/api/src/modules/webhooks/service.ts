import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@portal/contract';
import type {
  TPutWebhookResponse,
  TWebhookEndpoint,
  TWebhookEvent,
  TWebhookEventStatus,
  TWebhookEventType,
} from '@portal/contract/admin-webhooks';
import type { Database } from '../../db/database.ts';
import { AppError, FieldValidationError, notFound } from '../../lib/app-error.ts';
import { pageOf } from '../../lib/paging.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { WebhookTargetPolicy } from './address.ts';
import {
  deleteEndpoint,
  failPendingEvents,
  findEndpoint,
  insertEndpoint,
  insertEvent,
  listAttempts,
  listEvents,
  replaceSecret,
  requeueEvent,
  updateEndpoint,
  type AttemptRow,
  type EndpointRow,
  type EventRow,
} from './repository.ts';
import { webhookUrlProblem } from './url.ts';

/** A new signing secret: 256 random bits. The whole string is the HMAC key. */
const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

const endpointOf = (row: EndpointRow): TWebhookEndpoint => ({
  url: row.url,
  enabled: row.enabled,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const eventOf = (row: EventRow, attempts: AttemptRow[]): TWebhookEvent => ({
  id: row.id,
  type: row.type as TWebhookEventType,
  created_at: row.created_at.toISOString(),
  status: row.status,
  attempts: row.attempts,
  next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
  delivered_at: row.delivered_at ? row.delivered_at.toISOString() : null,
  payload: row.payload,
  attempt_log: attempts
    .filter((a) => a.event_id === row.id)
    .map((a) => ({
      attempt: a.attempt,
      url: a.url,
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
      attempted_at: a.attempted_at.toISOString(),
    })),
});

const noEnabledEndpoint = () =>
  new AppError(409, ErrorCode.conflict, 'The tenant has no enabled webhook endpoint');

/**
 * The provider's webhook administration: its endpoint, the signing secret (sealed at rest, shown
 * only when made) and the delivery log. Every call acts on the tenant of the API key.
 */
export function createWebhookService(deps: {
  db: Database;
  secretBox: SecretBox;
  targets: WebhookTargetPolicy;
}) {
  const seal = (tenantId: string, secret: string) =>
    deps.secretBox.seal(secret, { tenantId, field: 'webhook_secret' });

  return {
    async get(tenantId: string): Promise<TWebhookEndpoint> {
      const row = await deps.db.readTenant(tenantId, findEndpoint);
      if (!row) throw notFound('Webhook endpoint');
      return endpointOf(row);
    },

    async put(
      tenantId: string,
      input: { url: string; enabled?: boolean | undefined },
    ): Promise<TPutWebhookResponse> {
      const problem = webhookUrlProblem(input.url, { targets: deps.targets });
      if (problem) throw new FieldValidationError({ url: [problem] });
      return deps.db.withTenant(tenantId, async (sql) => {
        const updated = await updateEndpoint(sql, { url: input.url, enabled: input.enabled });
        if (updated) return endpointOf(updated);
        const secret = generateWebhookSecret();
        const created = await insertEndpoint(sql, {
          url: input.url,
          enabled: input.enabled ?? true,
          sealedSecret: seal(tenantId, secret),
        });
        if (created) return { ...endpointOf(created), secret };
        // Created by a concurrent call since the update: this call changes it.
        const raced = await updateEndpoint(sql, { url: input.url, enabled: input.enabled });
        if (!raced) throw new Error('webhook endpoint vanished');
        return endpointOf(raced);
      });
    },

    async rotateSecret(tenantId: string): Promise<{ secret: string }> {
      const secret = generateWebhookSecret();
      const done = await deps.db.withTenant(tenantId, (sql) =>
        replaceSecret(sql, seal(tenantId, secret)),
      );
      if (!done) throw notFound('Webhook endpoint');
      return { secret };
    },

    async remove(tenantId: string): Promise<{ deleted: boolean }> {
      const deleted = await deps.db.withTenant(tenantId, async (sql) => {
        if (!(await deleteEndpoint(sql))) return false;
        await failPendingEvents(sql);
        return true;
      });
      if (!deleted) throw notFound('Webhook endpoint');
      return { deleted };
    },

    async events(
      tenantId: string,
      query: {
        status?: TWebhookEventStatus | undefined;
        limit: number;
        before?: string | undefined;
      },
    ): Promise<{ events: TWebhookEvent[]; next_cursor: string | null }> {
      return deps.db.withTenant(tenantId, async (sql) => {
        const rows = await listEvents(sql, {
          status: query.status,
          limit: query.limit + 1,
          before: query.before,
        });
        const { page, nextCursor } = pageOf(rows, query.limit);
        const attempts = await listAttempts(
          sql,
          page.map((r) => r.id),
        );
        return {
          events: page.map((row) => eventOf(row, attempts)),
          next_cursor: nextCursor,
        };
      });
    },

    async redeliver(tenantId: string, eventId: string): Promise<TWebhookEvent> {
      return deps.db.withTenant(tenantId, async (sql) => {
        const endpoint = await findEndpoint(sql);
        const row = await requeueEvent(sql, eventId);
        if (!row) throw notFound('Webhook event');
        // Thrown after the lookup so that an unknown id is a 404 either way; rolls back the requeue.
        if (!endpoint?.enabled) throw noEnabledEndpoint();
        return eventOf(row, await listAttempts(sql, [row.id]));
      });
    },

    async ping(tenantId: string): Promise<TWebhookEvent> {
      return deps.db.withTenant(tenantId, async (sql) => {
        const endpoint = await findEndpoint(sql);
        if (!endpoint?.enabled) throw noEnabledEndpoint();
        const row = await insertEvent(sql, {
          type: 'ping',
          payload: { message: 'Test event requested through the API' },
        });
        return eventOf(row, []);
      });
    },
  };
}
