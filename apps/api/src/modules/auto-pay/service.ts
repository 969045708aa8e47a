import { ErrorCode, type TAutoPayResponse, type TAutoPayCardProblem } from '@portal/contract';
import type { Database, SqlQuery } from '../../db/database.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { todayIso } from '../../lib/dates.ts';
import { instalmentMethodKind } from '../invoices/method-kind.ts';
import type { Language } from '../mail/messages.ts';
import type { MitChargeInput, MitChargeResult } from '../payments/redsys-client.ts';
import type { TenantGatewayRow } from '../payments/repository.ts';
import type { PaymentService } from '../payments/service.ts';
import type { DeclineMailSender } from './declines.ts';
import type { AutoPayMailer } from './mail.ts';
import {
  createAutoPayRepository,
  tenantsWithAutoPay,
  type InstalmentRow,
  type SavedCardRow,
} from './repository.ts';

type Actor = { tenantId: string; customerId: string };

/** A charge the sweep found due: one job per instalment and charge number. */
export type AutoPayJob = { tenantId: string; instalmentId: string; attemptNo: number };

export type ChargeOutcome =
  | 'paid'
  | 'overpaid'
  | 'declined'
  /** Sent, no trustworthy answer: the reconciliation settles it from the gateway's query. */
  | 'unknown'
  /** This charge exists already (another job, instance or retry made it): nothing sent. */
  | 'duplicate'
  /** Nothing to charge any more: paid, cancelled, auto-pay turned off, tenant forbids it... */
  | 'skipped'
  /** A payment of the instalment is in progress (by hand): not charged now. */
  | 'in_progress';

/** yyyy-mm-dd -> yyyymmdd (the contract's dates). */
const compact = (iso: string) => iso.replace(/-/g, '');

/**
 * Whether the card may pay the instalment by itself: one the customer pays (card, transfer, cash)
 * or whose method the provider left empty. Never a direct debit, which the bank collects (the
 * money would be taken twice), nor a method written in words the portal does not know, which may
 * be one: before session 38 only the known wordings of a direct debit were left out, and "Rebut
 * domiciliat" (Catalan) was charged to the card as well.
 */
const cardMayPay = (i: Pick<InstalmentRow, 'method'>) => {
  const kind = instalmentMethodKind(i.method);
  return kind === 'card' || kind === 'bank_transfer' || kind === 'cash' || i.method.trim() === '';
};

/** Why a card cannot pay by itself on `today` (yyyy-mm-dd), or null. */
export function cardProblem(
  card: Pick<SavedCardRow, 'has_cof' | 'card_expiry'>,
  today: string,
): TAutoPayCardProblem | null {
  if (!card.has_cof) return 'no_cof_txnid';
  const expiry = card.card_expiry;
  if (expiry && /^\d{4}$/.test(expiry)) {
    // mmyy: valid until the end of its month.
    const lastMonth = `20${expiry.slice(2)}-${expiry.slice(0, 2)}`;
    if (lastMonth < today.slice(0, 7)) return 'expired';
  }
  return null;
}

/**
 * A saved card is removed (payment-methods module, in its transaction): auto-pay with it is off
 * from that commit.
 */
export async function turnOffAutoPayForCard(
  sql: SqlQuery,
  customerId: string,
  methodId: string,
): Promise<void> {
  await createAutoPayRepository().disable(sql, customerId, methodId);
}

export function createAutoPayService(db: Database) {
  const repository = createAutoPayRepository();

  async function summary(actor: Actor, today = todayIso()): Promise<TAutoPayResponse> {
    return db.withTenant(actor.tenantId, async (sql) => {
      const settings = await repository.settings(sql);
      const cards = await repository.cards(sql, actor.customerId);
      const current = await repository.current(sql, actor.customerId);
      const allowed = settings?.auto_pay ?? false;
      const on = allowed && current !== undefined;
      const covered = on
        ? (await repository.upcoming(sql, actor.customerId, today)).filter(cardMayPay).slice(0, 50)
        : [];
      // The list stops at 50; the web app says how many more there are, so it needs them all
      // counted (in SQL, grouped by method text, which `cardMayPay` judges as for the list).
      const total = on
        ? (await repository.upcomingCountByMethod(sql, actor.customerId, today))
            .filter(cardMayPay)
            .reduce((sum, group) => sum + group.count, 0)
        : 0;
      return {
        allowed,
        notice_days: settings?.auto_pay_notice_days ?? 0,
        card_id: on ? current.payment_method_id : null,
        cards: cards.map((c) => {
          const problem = cardProblem(c, today);
          return { id: c.id, eligible: problem === null, problem, enabled: on && c.enabled };
        }),
        instalments: covered.map((i) => ({
          payment_id: i.id,
          invoice_id: i.invoice_id,
          seq: i.seq,
          due_date: compact(i.due_date),
          amount_cents: i.amount_cents,
        })),
        // Never below the list's length: a row may change between the two reads.
        instalments_total: Math.max(total, covered.length),
        next_charge_date: covered[0] ? compact(covered[0].due_date) : null,
      };
    });
  }

  return {
    summary,

    /**
     * On with this card (off on the customer's other card, one at most), or off. Another
     * customer's or an unknown card: 404. The tenant forbids auto-pay: 403. A card that cannot pay
     * by itself: 409. Off takes effect when this commits: a charge starts only in a transaction
     * that finds the opt-in (the charge locks the instalment, then reads it).
     */
    async setCard(actor: Actor, cardId: string, enabled: boolean): Promise<TAutoPayResponse> {
      const today = todayIso();
      await db.withTenant(actor.tenantId, async (sql) => {
        const cards = await repository.cards(sql, actor.customerId);
        const card = cards.find((c) => c.id === cardId);
        if (!card) throw notFound('Card');
        if (!enabled) {
          await repository.disable(sql, actor.customerId, cardId);
          return;
        }
        const settings = await repository.settings(sql);
        if (!settings?.auto_pay) {
          throw new AppError(403, ErrorCode.autoPayNotAllowed, 'Auto-pay is not offered');
        }
        if (cardProblem(card, today) !== null) {
          throw new AppError(
            409,
            ErrorCode.autoPayCardUnsupported,
            'This card cannot be charged without the customer',
          );
        }
        await repository.enable(sql, actor.customerId, cardId, today);
      });
      return summary(actor, today);
    },
  };
}

/**
 * The background side: the sweep that finds the charges due (and sends the notices), and the
 * charge of one instalment (one job each). `send` is the gateway's MIT call (redsys-client.ts).
 */
export function createAutoPayCharger(deps: {
  db: Database;
  payments: PaymentService;
  send: (gateway: TenantGatewayRow, input: MitChargeInput) => Promise<MitChargeResult>;
  mail: AutoPayMailer;
  declineMails: DeclineMailSender;
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
}) {
  const { db } = deps;
  const repository = createAutoPayRepository();

  /**
   * Charges one instalment, once: the instalment is locked, the charge row (unique per
   * instalment and charge number) and its payment attempt are written in one transaction, and
   * only after it commits is the charge sent. A second job, sweep or instance for the same charge
   * finds the row (or waits on the lock, then finds it) and sends nothing.
   */
  async function charge(job: AutoPayJob, now = new Date()): Promise<ChargeOutcome> {
    const today = todayIso(now);
    const started = await db.withTenant(job.tenantId, async (sql) => {
      const settings = await repository.settings(sql);
      if (!settings?.auto_pay) return 'skipped' as const;
      const instalment = await repository.lockInstalment(sql, job.instalmentId);
      if (!instalment || instalment.status !== 'pending' || instalment.due_date > today) {
        return 'skipped' as const;
      }
      if (!cardMayPay(instalment)) return 'skipped' as const;
      const last = await repository.lastCharge(sql, instalment.id);
      if ((last?.attempt_no ?? 0) >= job.attemptNo) return 'duplicate' as const;
      // Charge n follows a declined charge n - 1 only, and stays within the tenant's retries.
      if ((last?.attempt_no ?? 0) !== job.attemptNo - 1) return 'skipped' as const;
      // Not while Redsys may still have taken the last one (let go unanswered, still asked about).
      if (last && (last.status !== 'failed' || last.unanswered)) return 'skipped' as const;
      // Nor while any payment of it is (a checkout by hand let go unanswered): the sweep charges
      // it once the gateway has answered, if it is still owed then.
      if (await repository.askedAbout(sql, instalment.id)) return 'skipped' as const;
      if (job.attemptNo > settings.auto_pay_retries + 1) return 'skipped' as const;
      const card = await repository.current(sql, instalment.customer_id);
      if (!card || cardProblem(card, today) !== null || instalment.due_date < card.since) {
        return 'skipped' as const;
      }
      // Moved to this customer (since the sweep, maybe): as `dueCharges` says (repository.ts).
      if (
        instalment.customer_since !== null &&
        (settings.auto_pay_notice_days > 0
          ? !(await repository.announced(sql, instalment.id))
          : instalment.due_date <= instalment.customer_since)
      )
        return 'skipped' as const;
      const contact = await repository.contact(sql, instalment.customer_id);
      const attempt = await deps.payments.startMerchantAttempt(sql, {
        customerId: instalment.customer_id,
        instalments: [instalment],
        paymentMethodId: card.payment_method_id,
        language: (contact?.language ?? 'es') as Language,
      });
      if (attempt === 'in_progress') return 'in_progress' as const;
      if (attempt === 'not_configured') return 'skipped' as const;
      const recorded = await repository.insertCharge(sql, {
        instalmentId: instalment.id,
        attemptNo: job.attemptNo,
        customerId: instalment.customer_id,
        methodId: card.payment_method_id,
        attemptId: attempt.id,
      });
      // The lock makes this unreachable; the unique key is the last guard: roll everything back.
      if (!recorded) throw new Error('auto-pay charge recorded twice');
      return { attemptId: attempt.id };
    });
    if (typeof started === 'string') return started;

    const result = await deps.payments.chargeOnFile(job.tenantId, started.attemptId, deps.send);
    if (result.outcome === 'skipped') return 'skipped';
    if (result.outcome !== 'declined') return result.outcome;

    // The customer was notified in the transaction that failed the charge (declines.ts): the
    // e-mail now, or by the outbox's next try.
    await deps.declineMails.sendTenant(job.tenantId);
    return 'declined';
  }

  /** The notices due on `today` in one tenant: recorded once each, then e-mailed. */
  async function sendNotices(tenantId: string, today: string): Promise<number> {
    const due = await db.withTenant(tenantId, async (sql) => {
      const settings = await repository.settings(sql);
      if (!settings?.auto_pay || settings.auto_pay_notice_days <= 0) return [];
      const candidates = await repository.noticeCandidates(sql, {
        today,
        days: settings.auto_pay_notice_days,
      });
      const recorded = [];
      for (const instalment of candidates.filter(cardMayPay)) {
        if (!(await repository.insertNotice(sql, instalment.id, instalment.customer_id))) continue;
        const contact = await repository.contact(sql, instalment.customer_id);
        if (contact) recorded.push({ instalment, contact });
      }
      return recorded;
    });
    for (const { instalment, contact } of due) {
      await deps.mail
        .notice(tenantId, contact, {
          amountCents: instalment.amount_cents,
          dueDate: instalment.due_date,
          cardMasked: instalment.card_masked,
        })
        .catch((error: unknown) =>
          deps.log.error({ err: error, tenantId }, 'auto-pay notice e-mail failed'),
        );
    }
    return due.length;
  }

  return {
    charge,
    sendNotices,

    /**
     * Every tenant that allows auto-pay: the notices due, then the charges due, each handed to
     * `enqueue` (the job queue, one job per instalment and charge number; tests charge directly).
     */
    async sweep(
      enqueue: (job: AutoPayJob) => Promise<void>,
      now = new Date(),
    ): Promise<{ notices: number; charges: number }> {
      const today = todayIso(now);
      let notices = 0;
      let charges = 0;
      for (const tenantId of await db.withOwner(tenantsWithAutoPay)) {
        notices += await sendNotices(tenantId, today);
        const due = await db.withTenant(tenantId, async (sql) => {
          const settings = await repository.settings(sql);
          if (!settings?.auto_pay) return [];
          return repository.dueCharges(sql, {
            today,
            now,
            retries: settings.auto_pay_retries,
            retryDays: settings.auto_pay_retry_days,
            noticeDays: settings.auto_pay_notice_days,
          });
        });
        for (const instalment of due.filter(cardMayPay)) {
          await enqueue({
            tenantId,
            instalmentId: instalment.id,
            attemptNo: instalment.attempt_no,
          });
          charges += 1;
        }
      }
      // Decline e-mails the mail server refused before (or a crash left unsent): tried again.
      await deps.declineMails.sendDue();
      return { notices, charges };
    },
  };
}
