import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { PeriodicJob } from '../jobs/periodic.ts';
import { webhookTargetPolicyOf } from './address.ts';
import { createWebhookDispatcher, webhookLimitsOf } from './dispatcher.ts';

/**
 * `webhook-dispatch`: the sender of the webhook outbox (run by the jobs module). Events are leased
 * (dispatcher.ts), and each POST is bounded by its timeout, so a run in flight ends on shutdown.
 */
export function webhookJobs(ctx: AppContext, log: FastifyBaseLogger): PeriodicJob[] {
  const every = ctx.config.OUTBOX_INTERVAL_SECONDS;
  if (every <= 0) return [];
  const dispatcher = createWebhookDispatcher({
    db: ctx.db,
    secretBox: ctx.secretBox,
    limits: webhookLimitsOf(ctx.config),
    log,
    targets: webhookTargetPolicyOf(ctx.config),
  });
  return [{ name: 'webhook-dispatch', everySeconds: every, run: () => dispatcher.dispatchDue() }];
}
