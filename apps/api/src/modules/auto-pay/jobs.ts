import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { PeriodicJob } from '../jobs/periodic.ts';
import { createReceiptMailer } from '../payments/receipt-mail.ts';
import { createRedsysClient } from '../payments/redsys-client.ts';
import { createPaymentService } from '../payments/service.ts';
import { createDeclineMailSender } from './declines.ts';
import { createAutoPayMailer } from './mail.ts';
import { createAutoPayCharger, type AutoPayJob } from './service.ts';

/** The queue of single charges: one job per instalment and charge number. */
export const autoPayChargeQueue = 'auto-pay-charge';

/** The job's singleton key: pg-boss keeps one such job waiting and one running at a time. */
export const chargeKey = (job: AutoPayJob) =>
  `${job.tenantId}:${job.instalmentId}:${job.attemptNo}`;

function isAutoPayJob(data: unknown): data is AutoPayJob {
  const d = data as Partial<AutoPayJob> | null;
  return (
    typeof d?.tenantId === 'string' &&
    typeof d.instalmentId === 'string' &&
    typeof d.attemptNo === 'number'
  );
}

/**
 * Auto-pay's background work (run by the jobs module): the `auto-pay` sweep sends the notices due
 * and queues one `auto-pay-charge` job per instalment due (singleton key per instalment and
 * charge number); each job charges its instalment once (the charge row's unique key).
 */
export function autoPayJobs(ctx: AppContext, log: FastifyBaseLogger): PeriodicJob[] {
  const every = ctx.config.AUTO_PAY_INTERVAL_SECONDS;
  if (every <= 0) return [];
  const redsys = createRedsysClient({ simulatorUrl: ctx.config.redsysSimulatorUrl });
  const payments = createPaymentService({
    db: ctx.db,
    secretBox: ctx.secretBox,
    simulatorUrl: ctx.config.redsysSimulatorUrl,
    notificationBaseUrl: ctx.config.notificationBaseUrl,
    onPaid: createReceiptMailer(ctx.db, ctx.mailer),
    log,
    now: ctx.now,
  });
  const mail = createAutoPayMailer(ctx.db, ctx.mailer);
  const charger = createAutoPayCharger({
    db: ctx.db,
    payments,
    send: (gateway, input) => redsys.mitCharge(gateway, input),
    mail,
    declineMails: createDeclineMailSender({ db: ctx.db, mail, log }),
    log,
  });
  return [
    {
      name: 'auto-pay',
      everySeconds: every,
      run: (queue) =>
        charger.sweep(async (job) => {
          if (!queue) {
            await charger.charge(job);
            return;
          }
          await queue.send(autoPayChargeQueue, job, chargeKey(job));
        }),
      workers: [
        {
          name: autoPayChargeQueue,
          work: async (data) => {
            if (!isAutoPayJob(data)) return;
            const outcome = await charger.charge(data);
            ctx.metrics.countPayment(outcome, 'auto-pay');
          },
        },
      ],
    },
  ];
}
