import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { PeriodicJob } from '../jobs/periodic.ts';
import { createDeclineMailSender } from '../auto-pay/declines.ts';
import { createAutoPayMailer } from '../auto-pay/mail.ts';
import { createReceiptMailer } from './receipt-mail.ts';
import { createReconciler } from './reconcile.ts';
import { createRefunder, refundsThrough } from './refunds.ts';
import { createRedsysClient } from './redsys-client.ts';
import { createPaymentService } from './service.ts';

/**
 * The payments module's background work (run by the jobs module):
 * - `reconciliation`: payments the gateway never notified are settled by asking it (reconcile.ts);
 * - `refund-outbox`: overpayments are refunded through the gateway, each refund leased, sent once,
 *   retried or left for the operator (refunds.ts).
 */
export function paymentJobs(ctx: AppContext, log: FastifyBaseLogger): PeriodicJob[] {
  const redsys = createRedsysClient({ simulatorUrl: ctx.config.redsysSimulatorUrl });
  const jobs: PeriodicJob[] = [];
  const reconcileEvery = ctx.config.RECONCILE_INTERVAL_SECONDS;
  if (reconcileEvery > 0) {
    const declineMails = createDeclineMailSender({
      db: ctx.db,
      mail: createAutoPayMailer(ctx.db, ctx.mailer),
      log,
    });
    const service = createPaymentService({
      db: ctx.db,
      secretBox: ctx.secretBox,
      simulatorUrl: ctx.config.redsysSimulatorUrl,
      notificationBaseUrl: ctx.config.notificationBaseUrl,
      onPaid: createReceiptMailer(ctx.db, ctx.mailer),
      onAutoPayDeclined: async (tenantId) => {
        await declineMails.sendTenant(tenantId);
      },
      log,
      now: ctx.now,
    });
    const reconciler = createReconciler({
      db: ctx.db,
      secretBox: ctx.secretBox,
      service,
      client: redsys,
      afterMinutes: ctx.config.RECONCILE_AFTER_MINUTES,
      releaseAfterMinutes: ctx.config.RECONCILE_RELEASE_AFTER_MINUTES,
      log,
    });
    jobs.push({
      name: 'reconciliation',
      everySeconds: reconcileEvery,
      run: async () => {
        for (const { outcome } of await reconciler.reconcileAll())
          ctx.metrics.countPayment(outcome, 'reconciler');
      },
    });
  }
  const outboxEvery = ctx.config.OUTBOX_INTERVAL_SECONDS;
  if (outboxEvery > 0) {
    const refunder = createRefunder({
      db: ctx.db,
      secretBox: ctx.secretBox,
      ...refundsThrough(redsys),
      log,
    });
    jobs.push({ name: 'refund-outbox', everySeconds: outboxEvery, run: () => refunder.sendDue() });
  }
  return jobs;
}
