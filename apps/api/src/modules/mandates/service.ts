import { randomBytes, randomUUID } from 'node:crypto';
import { ErrorCode, FieldError } from '@portal/contract';
import type { TLanguage } from '@portal/contract/languages';
import type {
  TAdminSepaMandatesResponse,
  TSepaMandate,
  TSepaMandatesResponse,
  TSepaMandateStatus,
} from '@portal/contract/sepa-mandates';
import { friendlyFormatIBAN } from 'ibantools';
import type { Database, SqlQuery } from '../../db/database.ts';
import { AppError, FieldValidationError, notFound } from '../../lib/app-error.ts';
import { todayIso } from '../../lib/dates.ts';
import { pageOf } from '../../lib/paging.ts';
import { webhookEvents } from '../webhooks/events.ts';
import type { MandatePdfInput } from './pdf.ts';
import { createMandateRepository, type MandateRow } from './repository.ts';

type Actor = { tenantId: string; customerId: string };

/** Where and how the customer accepted the mandate: kept as the signature's evidence. */
export type SignatureEvidence = { ip: string; userAgent: string | undefined };

/** A user agent is kept for evidence, bounded (a header can be kilobytes). */
const userAgentMaxLength = 512;

const repository = createMandateRepository();

/**
 * A new mandate reference: `M-<date>-<12 hex>`, 23 characters of the SEPA set (at most 35),
 * unique per tenant by the table's constraint; 48 random bits make a clash vanishingly rare.
 */
export function newMandateReference(now: Date): string {
  // The day in Madrid, as the mandate's PDF says it (the UTC day was the day before at 00:30).
  const day = todayIso(now).replace(/-/g, '');
  return `M-${day}-${randomBytes(6).toString('hex').toUpperCase()}`;
}

const readableIban = (iban: string): string => friendlyFormatIBAN(iban) ?? iban;

const toMandate = (m: MandateRow): TSepaMandate => ({
  id: m.id,
  reference: m.reference,
  status: m.status,
  debtor_name: m.debtor_name,
  iban: readableIban(m.iban),
  payment_method_id: m.payment_method_id,
  signed_at: m.signed_at.toISOString(),
  replaced_by_reference: m.replaced_by_reference,
});

/**
 * What the payment-methods module calls in the transaction that adds a bank account: the mandate
 * is signed with the account, or neither is written.
 */
export const sepaMandates = {
  /**
   * Refuses (422 `mandate_accepted: mandate_required`) a bank account whose mandate was not
   * accepted, where the tenant collects by direct debit; answers the creditor to sign for, or
   * undefined when the tenant has no creditor identifier (no mandate is signed in the portal).
   */
  async requireAcceptance(sql: SqlQuery, accepted: boolean | undefined) {
    const creditor = await repository.creditor(sql);
    if (!creditor?.sepa_creditor_id) return undefined;
    if (accepted !== true) {
      throw new FieldValidationError({ mandate_accepted: [FieldError.mandateRequired] });
    }
    return creditor;
  },

  /**
   * Signs a mandate for the bank account just added; the customer's active one, if any, is marked
   * replaced by it, and the provider is told (webhook `mandate.signed`), all in this transaction.
   * The customer's lock makes two signatures at once leave exactly one active mandate.
   */
  async sign(
    sql: SqlQuery,
    m: {
      customerId: string;
      paymentMethodId: string;
      creditor: NonNullable<Awaited<ReturnType<typeof repository.creditor>>>;
      debtorName: string;
      debtorNif: string;
      iban: string;
      language: TLanguage;
      evidence: SignatureEvidence;
      now: Date;
    },
  ): Promise<{ id: string; reference: string }> {
    await repository.lockCustomer(sql, m.customerId);
    const previous = await repository.activeOf(sql, m.customerId);
    const id = randomUUID();
    const reference = newMandateReference(m.now);
    const replaced = previous ? await repository.markReplaced(sql, previous, id) : false;
    await repository.insert(sql, {
      id,
      customerId: m.customerId,
      paymentMethodId: m.paymentMethodId,
      reference,
      creditor: m.creditor,
      debtorName: m.debtorName,
      debtorNif: m.debtorNif,
      iban: m.iban,
      language: m.language,
      signerIp: m.evidence.ip,
      userAgent: (m.evidence.userAgent ?? '').slice(0, userAgentMaxLength),
    });
    await webhookEvents.mandateSigned(sql, id);
    // The ending is told once, by the transaction that ended it (its UPDATE matched the row).
    if (previous && replaced) await webhookEvents.mandateReplaced(sql, previous);
    return { id, reference };
  },

  /**
   * The bank account is being deleted: its active mandate ends (revoked), and the provider is told
   * (webhook `mandate.revoked`) in this transaction.
   */
  async revokeForMethod(sql: SqlQuery, paymentMethodId: string): Promise<void> {
    for (const id of await repository.revokeForMethod(sql, paymentMethodId)) {
      await webhookEvents.mandateRevoked(sql, id);
    }
  },

  /**
   * Before signing for a bank account already saved: refuses (409 `mandate_active`) one that has an
   * active mandate. Runs under the customer's lock, so two signatures at once cannot both pass.
   */
  async refuseIfActive(sql: SqlQuery, customerId: string, paymentMethodId: string) {
    await repository.lockCustomer(sql, customerId);
    if (await repository.hasActiveForMethod(sql, paymentMethodId)) {
      throw new AppError(409, ErrorCode.mandateActive, 'The bank account has an active mandate');
    }
  },
};

export function createMandateService(db: Database) {
  return {
    /** The customer's mandates, newest first, and the creditor (null: none can be signed). */
    async list(actor: Actor): Promise<TSepaMandatesResponse> {
      const [creditor, rows] = await db.withTenant(
        actor.tenantId,
        async (sql) =>
          [
            await repository.creditor(sql),
            await repository.listOwn(sql, actor.customerId),
          ] as const,
      );
      return {
        creditor: creditor?.sepa_creditor_id
          ? {
              name: creditor.name,
              address: creditor.address,
              identifier: creditor.sepa_creditor_id,
            }
          : null,
        mandates: rows.map(toMandate),
      };
    },

    /** The customer's own mandate (another customer's is a 404, like a missing one). */
    async own(actor: Actor, id: string): Promise<MandateRow> {
      const row = await db.readTenant(actor.tenantId, (sql) =>
        repository.findOwn(sql, actor.customerId, id),
      );
      if (!row) throw notFound('Mandate');
      return row;
    },

    /** What the PDF of the customer's own mandate shows. */
    async pdfInput(actor: Actor, id: string, language: TLanguage | undefined) {
      const [row, brand] = await db.withTenant(
        actor.tenantId,
        async (sql) =>
          [
            await repository.findOwn(sql, actor.customerId, id),
            await repository.brand(sql),
          ] as const,
      );
      if (!row || !brand) throw notFound('Mandate');
      const input: MandatePdfInput = {
        mandate: {
          reference: row.reference,
          status: row.status,
          creditor_id: row.creditor_id,
          creditor_name: row.creditor_name,
          creditor_address: row.creditor_address,
          debtor_name: row.debtor_name,
          debtor_nif: row.debtor_nif,
          iban: readableIban(row.iban),
          signed_at: row.signed_at,
          signer_ip: row.signer_ip,
          replaces_reference: row.replaces_reference,
          replaced_by_reference: row.replaced_by_reference,
        },
        brand: {
          primary_color: brand.primary_color,
          logo_mime: brand.logo_mime,
          logo_data: brand.logo_data,
        },
        language: language ?? row.language,
      };
      return { input, reference: row.reference };
    },

    /** The provider's read side (API key): every mandate of the tenant, newest first. */
    async listForProvider(
      tenantId: string,
      query: {
        limit: number;
        before?: string | undefined;
        status?: TSepaMandateStatus | undefined;
      },
    ): Promise<TAdminSepaMandatesResponse> {
      const rows = await db.readTenant(tenantId, (sql) =>
        repository.listForProvider(sql, {
          limit: query.limit + 1,
          before: query.before,
          status: query.status,
        }),
      );
      const { page, nextCursor } = pageOf(rows, query.limit);
      return {
        mandates: page.map((m) => ({
          id: m.id,
          reference: m.reference,
          status: m.status,
          customer_code: m.customer_code,
          creditor_id: m.creditor_id,
          debtor_name: m.debtor_name,
          debtor_nif: m.debtor_nif,
          iban: m.iban,
          payment_type: 'recurrent' as const,
          language: m.language,
          signed_at: m.signed_at.toISOString(),
          signer_ip: m.signer_ip,
          user_agent: m.user_agent,
          replaces_reference: m.replaces_reference,
          replaced_by_reference: m.replaced_by_reference,
          ended_at: m.ended_at ? m.ended_at.toISOString() : null,
        })),
        next_cursor: nextCursor,
      };
    },
  };
}
