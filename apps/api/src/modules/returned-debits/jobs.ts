import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { PeriodicJob } from '../jobs/periodic.ts';
import { createReturnMailSender } from './service.ts';

/**
 * `returned-debit-mail`: the e-mails of returned direct debits that were not sent right after their
 * return was recorded (the mail server refused, the process stopped), tried again with back-off.
 */
export function returnedDebitJobs(ctx: AppContext, log: FastifyBaseLogger): PeriodicJob[] {
  const every = ctx.config.OUTBOX_INTERVAL_SECONDS;
  if (every <= 0) return [];
  const sender = createReturnMailSender({ db: ctx.db, mailer: ctx.mailer, log });
  return [{ name: 'returned-debit-mail', everySeconds: every, run: () => sender.sendDue() }];
}
