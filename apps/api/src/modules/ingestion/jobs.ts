import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { PeriodicJob } from '../jobs/periodic.ts';
import { createInvitationSender } from './invitations.ts';

/** `invitation-outbox`: the invitations of new customers, sent by the jobs module. */
export function ingestionJobs(ctx: AppContext, log: FastifyBaseLogger): PeriodicJob[] {
  const every = ctx.config.OUTBOX_INTERVAL_SECONDS;
  if (every <= 0) return [];
  const sender = createInvitationSender({ db: ctx.db, mailer: ctx.mailer, log });
  return [{ name: 'invitation-outbox', everySeconds: every, run: () => sender.sendDue() }];
}
