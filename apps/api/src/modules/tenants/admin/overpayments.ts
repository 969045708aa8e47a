import { createPaymentRepository, type RefundRow } from '../../payments/repository.ts';
import {
  adminExit,
  AdminFailure,
  boolean,
  iso,
  problemsOf,
  requireTenant,
  string,
  table,
  type AdminRunner,
  type CommandSpec,
} from './common.ts';
import { parseOption, ZRefundId, ZResolvedNote, ZTenantIdOption } from './input.ts';

/** `overpayments list|resolve|retry`: the overpayments that wait for the operator. */

export const overpaymentCommands: Record<string, CommandSpec> = {
  'overpayments list': {
    synopsis:
      'overpayments list --tenant <id> [--all] [--json]\n' +
      '      Payments that charged for instalments already paid and wait for the operator (automatic\n' +
      '      refunds off, or Redsys refused); --all lists every overpayment and its refund.',
    options: { tenant: string, all: boolean, json: boolean },
    required: ['tenant'],
    prepare: async (values) => {
      const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
      return tenant.ok
        ? listOverpayments(tenant.value, values.all === true, values.json === true)
        : [tenant.problem];
    },
  },
  'overpayments resolve': {
    synopsis:
      'overpayments resolve --tenant <id> --id <overpayment id> [--note <text>]\n' +
      '      Marks an overpayment waiting for the operator as dealt with (refunded by hand...).',
    options: { tenant: string, id: string, note: string },
    required: ['tenant', 'id'],
    prepare: async (values) => {
      const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
      const id = parseOption('id', ZRefundId, values.id);
      const note = parseOption('note', ZResolvedNote, values.note ?? '');
      if (!tenant.ok || !id.ok || !note.ok) return problemsOf(tenant, id, note);
      return changeOverpayment('resolve', tenant.value, id.value, note.value);
    },
  },
  'overpayments retry': {
    synopsis:
      'overpayments retry --tenant <id> --id <overpayment id> [--not-refunded]\n' +
      '      Sends an overpayment waiting for the operator back to Redsys as an automatic refund.\n' +
      '      One of unknown outcome (Redsys may have refunded it) needs --not-refunded: you checked\n' +
      '      the order in the Redsys back office and it has no refund.',
    options: { tenant: string, id: string, 'not-refunded': boolean },
    required: ['tenant', 'id'],
    prepare: async (values) => {
      const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
      const id = parseOption('id', ZRefundId, values.id);
      if (!tenant.ok || !id.ok) return problemsOf(tenant, id);
      return changeOverpayment('retry', tenant.value, id.value, '', {
        checkedNotRefunded: values['not-refunded'] === true,
      });
    },
  },
};

const euros = (cents: number): string => (cents / 100).toFixed(2);

const overpaymentJson = (r: RefundRow) => ({
  id: r.id,
  payment_id: r.attempt_id,
  order_number: r.order_number,
  customer_code: r.customer_code,
  paid_cents: r.paid_cents,
  refund_cents: r.amount_cents,
  status: r.status,
  review_reason: r.review_reason,
  attempts: r.attempts,
  last_code: r.last_code,
  authorisation_code: r.ds_authorisation_code,
  resolved_note: r.resolved_note,
  created_at: iso(r.created_at),
  refunded_at: iso(r.refunded_at),
  resolved_at: iso(r.resolved_at),
});

function listOverpayments(tenantId: string, all: boolean, json: boolean): AdminRunner {
  return async ({ db, box, out, err }) => {
    const repository = createPaymentRepository(box);
    const rows = await db.withTenant(tenantId, async (sql) => {
      await requireTenant(sql, tenantId);
      return repository.listRefunds(sql, { all, limit: 1000 });
    });
    if (json) {
      out(JSON.stringify(rows.map(overpaymentJson), null, 2));
      return adminExit.ok;
    }
    if (rows.length === 0) {
      err(
        all
          ? `Tenant ${tenantId} has no overpayments.`
          : `No overpayment of tenant ${tenantId} waits for the operator (--all lists every one).`,
      );
      return adminExit.ok;
    }
    for (const line of table(
      ['ID', 'CREATED', 'ORDER', 'CUSTOMER', 'PAID', 'REFUND', 'STATUS', 'TRIES', 'WHY'],
      rows.map((r) => [
        r.id,
        iso(r.created_at) ?? '-',
        r.order_number,
        r.customer_code,
        euros(r.paid_cents),
        euros(r.amount_cents),
        r.status,
        String(r.attempts),
        [r.review_reason, r.last_code].filter(Boolean).join(' ') || '-',
      ]),
    )) {
      out(line);
    }
    if (!all) {
      err(
        'Refund each one in the Redsys back office (or `overpayments retry` to send it again), ' +
          'then `overpayments resolve`.',
      );
    }
    return adminExit.ok;
  };
}

function changeOverpayment(
  action: 'resolve' | 'retry',
  tenantId: string,
  id: string,
  note: string,
  { checkedNotRefunded = false } = {},
): AdminRunner {
  return async ({ db, box, out }) => {
    const repository = createPaymentRepository(box);
    const row = await db.withTenant(tenantId, async (sql) => {
      await requireTenant(sql, tenantId);
      if (action === 'resolve') return repository.resolveRefund(sql, id, note);
      // Refunds of one order add up at Redsys: one that may have been made is sent again only
      // when the operator says the back office shows none (the outbox asks Redsys meanwhile).
      const unknown = (await repository.refund(sql, id))?.review_reason === 'outcome_unknown';
      if (unknown && !checkedNotRefunded) {
        throw new AdminFailure(
          `--id: overpayment ${id} may already be refunded (outcome_unknown): sending it again ` +
            'could refund it twice. The portal asks Redsys about it every 15 minutes for 7 days ' +
            'and records what Redsys says. Check the order in the Redsys back office: refunded, ' +
            '`overpayments resolve`; no refund, `overpayments retry --not-refunded`.',
        );
      }
      return repository.retryRefund(sql, id);
    });
    if (!row) {
      throw new AdminFailure(
        `--id: tenant ${tenantId} has no overpayment ${id} waiting for the operator (see overpayments list)`,
      );
    }
    out(
      action === 'resolve'
        ? `Resolved overpayment ${id} (order ${row.order_number}, ${euros(row.amount_cents)} EUR).`
        : `Overpayment ${id} (order ${row.order_number}, ${euros(row.amount_cents)} EUR) will be refunded through Redsys.`,
    );
    return adminExit.ok;
  };
}
