import type {
  TWebhookDelivery,
  TWebhookEventStatus,
  TWebhookEventType,
} from '@portal/contract/admin-webhooks';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import {
  claimDueEvents,
  findEndpoint,
  insertAttempt,
  settleAttempt,
  tenantsWithDueEvents,
  type ClaimedEvent,
} from './repository.ts';
import { RefusedAddressError, type ResolveAll, type WebhookTargetPolicy } from './address.ts';
import { retryDelaySeconds } from './retry.ts';
import { signatureHeader, signWebhook } from './signature.ts';
import { postJson } from './transport.ts';

export type WebhookLimits = {
  retryBaseSeconds: number;
  retryMaxSeconds: number;
  maxAttempts: number;
  timeoutSeconds: number;
  /** Events of one tenant taken (and sent in parallel) at a time. */
  batchSize?: number;
};

export const webhookLimitsOf = (config: Config): WebhookLimits => ({
  retryBaseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS,
  retryMaxSeconds: config.WEBHOOK_RETRY_MAX_SECONDS,
  maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
  timeoutSeconds: config.WEBHOOK_TIMEOUT_SECONDS,
});

export const userAgent = 'oficina-online-webhooks/1.0';

/** At most this much of a receiver's answer or of a network error is kept in the log. */
const maxErrorLength = 500;
/** Batches of one tenant per run, so that a run ends even when events keep arriving. */
const maxRoundsPerTenant = 10;
/**
 * Tenants sent to at once in a run. One tenant whose receiver hangs until the timeout holds one of
 * these places, not the run: before session 36 the tenants took turns, and a receiver that always
 * timed out held every other tenant's events back by up to ten timeouts a run.
 */
const tenantsAtOnce = 8;

type Log = {
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};

type Outcome = { statusCode: number | null; error: string | null; durationMs: number };

const clip = (text: string): string =>
  text.length > maxErrorLength ? `${text.slice(0, maxErrorLength - 1)}…` : text;

/** A network failure in words for the log: the cause's code (ECONNREFUSED...) or the timeout. */
function describeFailure(error: unknown, timeoutSeconds: number): string {
  if (error instanceof RefusedAddressError) return error.message;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${timeoutSeconds} s`;
  }
  // Several addresses tried in turn (happy eyeballs) fail as one AggregateError.
  const first = error instanceof AggregateError ? (error.errors[0] as unknown) : error;
  if (first instanceof RefusedAddressError) return first.message;
  const code = first instanceof Error ? (first as { code?: unknown }).code : undefined;
  if (typeof code === 'string') return `connection failed: ${code}`;
  return error instanceof Error ? error.message : 'delivery failed';
}

/**
 * Sends the webhook outbox (`webhook_events`) to each tenant's endpoint. Delivery is at least once:
 * an event is taken under a lease (see `claimDueEvents`), POSTed outside any transaction, and its
 * attempt recorded afterwards; a crash between the POST and the record sends it again after the
 * lease, with the same id (the receiver's idempotency key). A 2xx answer delivers; anything else
 * (a redirect too) schedules a retry with exponential backoff until `maxAttempts`.
 */
export function createWebhookDispatcher(deps: {
  db: Database;
  secretBox: SecretBox;
  limits: WebhookLimits;
  log: Log;
  /** `public-only` unless WEBHOOK_ALLOW_PRIVATE (`webhookTargetPolicyOf`): no POST to a private address. */
  targets: WebhookTargetPolicy;
  /** Name resolution of the sockets (tests answer it without DNS). */
  resolveAll?: ResolveAll;
  /** Jitter source of the retry schedule (tests pin it). */
  random?: () => number;
}) {
  const { limits } = deps;
  const batchSize = limits.batchSize ?? 10;
  // Longer than one batch in flight (sent in parallel, each bounded by the timeout).
  const leaseSeconds = limits.timeoutSeconds + 60;

  async function post(
    url: string,
    secret: string,
    tenantId: string,
    event: ClaimedEvent,
  ): Promise<Outcome> {
    const delivery: TWebhookDelivery = {
      id: event.id,
      type: event.type as TWebhookEventType,
      created_at: event.created_at.toISOString(),
      tenant: tenantId,
      data: event.payload,
    };
    const body = JSON.stringify(delivery);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await postJson(url, {
        headers: {
          'content-type': 'application/json',
          'user-agent': userAgent,
          'idempotency-key': event.id,
          'x-portal-event-id': event.id,
          'x-portal-event-type': event.type,
          [signatureHeader]: signWebhook({ secret, body }),
        },
        body,
        timeoutMs: limits.timeoutSeconds * 1000,
        maxTextLength: maxErrorLength,
        targets: deps.targets,
        resolveAll: deps.resolveAll,
      });
      if (response.status >= 200 && response.status < 300) {
        return { statusCode: response.status, error: null, durationMs: elapsed() };
      }
      const { location } = response;
      const detail =
        response.status >= 300 && response.status < 400
          ? `redirect${location ? ` to ${location}` : ''} (not followed)`
          : response.text || response.statusText;
      return {
        statusCode: response.status,
        error: clip(`HTTP ${response.status}${detail ? `: ${detail}` : ''}`),
        durationMs: elapsed(),
      };
    } catch (error) {
      return {
        statusCode: null,
        error: clip(describeFailure(error, limits.timeoutSeconds)),
        durationMs: elapsed(),
      };
    }
  }

  /** Records the attempt; answers whether it delivered. */
  async function record(
    tenantId: string,
    url: string,
    event: ClaimedEvent,
    outcome: Outcome,
  ): Promise<boolean> {
    const attempt = event.attempts + 1;
    const delivered = outcome.error === null;
    const status: TWebhookEventStatus = delivered
      ? 'delivered'
      : attempt >= limits.maxAttempts
        ? 'failed'
        : 'pending';
    const retryInSeconds =
      status === 'pending'
        ? retryDelaySeconds(
            attempt,
            { baseSeconds: limits.retryBaseSeconds, maxSeconds: limits.retryMaxSeconds },
            deps.random,
          )
        : 0;
    await deps.db.withTenant(tenantId, async (sql) => {
      await insertAttempt(sql, {
        event_id: event.id,
        attempt,
        url,
        status_code: outcome.statusCode,
        error: outcome.error,
        duration_ms: outcome.durationMs,
      });
      await settleAttempt(sql, {
        eventId: event.id,
        attempt,
        status,
        retryInSeconds,
        lease: event.lease,
      });
    });
    if (status === 'failed') {
      deps.log.warn({ tenantId, eventId: event.id, attempt }, 'webhook delivery given up');
    }
    return delivered;
  }

  /** Due events of one tenant, in batches; each event is tried at most once per run. */
  async function dispatchTenant(tenantId: string): Promise<number> {
    const tried: string[] = [];
    for (let round = 0; round < maxRoundsPerTenant; round++) {
      const claim = await deps.db.withTenant(tenantId, async (sql) => {
        const endpoint = await findEndpoint(sql);
        if (!endpoint?.enabled) return null;
        // Opened before anything is leased: a secret that does not open changes nothing.
        const secret = deps.secretBox.open(endpoint.secret, { tenantId, field: 'webhook_secret' });
        const events = await claimDueEvents(sql, {
          limit: batchSize,
          leaseSeconds,
          exclude: tried,
        });
        return { url: endpoint.url, secret, events };
      });
      if (!claim || claim.events.length === 0) break;
      const { url, secret, events } = claim;
      events.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
      tried.push(...events.map((e) => e.id));
      const delivered = await Promise.all(
        events.map(async (event) =>
          record(tenantId, url, event, await post(url, secret, tenantId, event)),
        ),
      );
      // A receiver that failed any of them waits for its retries, not for more of this run.
      if (events.length < batchSize || delivered.includes(false)) break;
    }
    return tried.length;
  }

  return {
    dispatchTenant,
    /**
     * One run over every tenant with due events; answers how many delivery attempts it made.
     * Finding those tenants is the one cross-tenant read (tenant ids only, as the owner); each
     * tenant's events are then read and written under its own row-level security.
     */
    async dispatchDue(): Promise<number> {
      const waiting = await deps.db.withOwner(tenantsWithDueEvents);
      let attempts = 0;
      const sender = async () => {
        for (let tenantId = waiting.shift(); tenantId; tenantId = waiting.shift()) {
          try {
            // Read after the await: the senders add to it in turn.
            const made = await dispatchTenant(tenantId);
            attempts += made;
          } catch (error) {
            deps.log.error({ err: error, tenantId }, 'webhook dispatch failed');
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(tenantsAtOnce, waiting.length) }, sender));
      return attempts;
    },
  };
}
