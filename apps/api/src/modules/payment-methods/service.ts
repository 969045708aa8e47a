import {
  customerLimits,
  ErrorCode,
  type TAddBankAccountRequest,
  type TBankTransferInfo,
  type TPaymentMethod,
  type TSignBankAccountMandateRequest,
  FieldError,
} from '@portal/contract';
import { normalizeTaxId } from '@portal/contract';
import { electronicFormatIBAN, friendlyFormatIBAN, isSEPACountry } from 'ibantools';
import { lineBreak } from '@portal/contract/texts';
import type { Database, SqlQuery } from '../../db/database.ts';
import { AppError, FieldValidationError, notFound } from '../../lib/app-error.ts';
import { createPaymentMethodRepository, type MethodRow } from './repository.ts';
import { spanishBankOf } from '@portal/contract/spanish-banks';
import { webhookEvents } from '../webhooks/events.ts';
import { turnOffAutoPayForCard } from '../auto-pay/service.ts';
import { sepaMandates, type SignatureEvidence } from '../mandates/service.ts';

type Actor = { tenantId: string; customerId: string };

const toMethod = (m: MethodRow): TPaymentMethod => ({
  id: m.id,
  kind: m.kind,
  alias: m.alias,
  holder: m.holder,
  status: m.status,
  is_main: m.is_main,
  card_brand: m.card_brand,
  card_masked: m.card_masked,
  card_expiry: m.card_expiry ? `${m.card_expiry.slice(0, 2)}/${m.card_expiry.slice(2)}` : null,
  iban: m.iban ? (friendlyFormatIBAN(m.iban) ?? m.iban) : null,
  nif: m.nif,
  entity: m.entity,
  created_at: m.created_at.toISOString(),
  pending_request: m.pending_request,
  pending_requests: m.pending_requests,
});

/**
 * The SEPA credit-transfer QR (EPC069-12, version 002): a banking app reads the beneficiary, IBAN
 * and remittance reference from it.
 */
export function epcQrPayload(t: { beneficiary: string; iban: string; reference: string }): string {
  return [
    'BCD',
    '002',
    '1',
    'SCT',
    '',
    t.beneficiary.slice(0, 70),
    t.iban,
    '',
    '',
    '',
    t.reference.slice(0, 140),
    '',
  ].join('\n');
}

/** The cap's one rule: saved methods and cards being added, below `customerLimits.paymentMethods`. */
const hasRoom = (usage: { methods: number; pending_card_attempts: number }) =>
  usage.methods + usage.pending_card_attempts < customerLimits.paymentMethods;

/**
 * Refuses, with the 409 of customer-limits.ts, what would take a customer past a cap: a new method
 * (`bank_account`), a new card addition (`card`: a card being added will be a method), a new request
 * (`request`). Runs in the transaction of the write that follows, under the customer's lock.
 */
export async function checkCustomerLimits(
  sql: SqlQuery,
  customerId: string,
  adding: 'bank_account' | 'card' | 'request',
): Promise<void> {
  const repository = createPaymentMethodRepository();
  await repository.lockCustomer(sql, customerId);
  const usage = await repository.usage(sql, customerId);
  if (adding === 'request') {
    if (usage.pending_requests >= customerLimits.pendingRequests)
      throw new AppError(
        409,
        ErrorCode.pendingRequestLimit,
        'Too many requests waiting for review',
      );
    return;
  }
  if (adding === 'card' && usage.pending_card_attempts >= customerLimits.pendingCardAttempts)
    throw new AppError(409, ErrorCode.cardAttemptLimit, 'Too many card additions in progress');
  if (!hasRoom(usage))
    throw new AppError(409, ErrorCode.paymentMethodLimit, 'Too many saved payment methods');
}

/**
 * Whether one more saved method fits under the cap (cards being added count), checked under the
 * customer's lock in the caller's transaction: a payment that asks to save its card saves it only
 * then (before session 36 it saved it past the cap, and the list grew without end).
 */
export async function roomForAnotherMethod(
  sql: SqlQuery,
  customerId: string,
  /** The card addition whose card this is: its place under the cap is the card's own. */
  ownAttempt: string | null = null,
): Promise<boolean> {
  const repository = createPaymentMethodRepository();
  await repository.lockCustomer(sql, customerId);
  return hasRoom(await repository.usage(sql, customerId, ownAttempt));
}

/**
 * An account saved before today's rules (session 37: the SEPA area, a one-line holder) is checked
 * by them again before a mandate is signed for it, as when it is added or edited: a Brazilian
 * account got an active SEPA mandate that replaced the working one, and a holder of several lines
 * drew forged fields in the mandate's debtor box (session 39). 422 on the field, nothing signed.
 */
function refuseUnsignable(iban: string, holder: string) {
  const errors: Record<string, string[]> = {};
  if (!isSEPACountry((electronicFormatIBAN(iban) ?? '').slice(0, 2))) {
    errors.iban = [FieldError.ibanNotSepa];
  }
  if (lineBreak.test(holder)) errors.holder = [FieldError.invalidCharacters];
  if (Object.keys(errors).length > 0) throw new FieldValidationError(errors);
}

export function createPaymentMethodService(db: Database) {
  const repository = createPaymentMethodRepository();
  const one = async (actor: Actor, id: string) => {
    const row = await db.readTenant(actor.tenantId, (sql) =>
      repository.find(sql, actor.customerId, id),
    );
    if (!row) throw notFound('Payment method');
    return toMethod(row);
  };

  return {
    async list(actor: Actor) {
      const [rows, usage] = await Promise.all([
        db.readTenant(actor.tenantId, (sql) => repository.list(sql, actor.customerId)),
        db.readTenant(actor.tenantId, (sql) => repository.usage(sql, actor.customerId)),
      ]);
      return { methods: rows.map(toMethod), room_for_another: hasRoom(usage) };
    },

    /**
     * Adds a bank account for direct debit. Where the tenant has a SEPA creditor identifier, the
     * customer signs its mandate with it (issue 23, item 6): without the explicit acceptance
     * nothing is written (422), and the mandate, the account and the mark on the mandate it
     * replaces are one transaction.
     */
    async addBankAccount(
      actor: Actor,
      body: TAddBankAccountRequest,
      evidence: SignatureEvidence = { ip: '', userAgent: undefined },
    ) {
      const iban = electronicFormatIBAN(body.iban) ?? body.iban;
      const holder = body.holder.trim();
      const nif = normalizeTaxId(body.nif);
      const id = await db.withTenant(actor.tenantId, async (sql) => {
        const creditor = await sepaMandates.requireAcceptance(sql, body.mandate_accepted);
        await checkCustomerLimits(sql, actor.customerId, 'bank_account');
        const methodId = await repository.insertBankAccount(sql, {
          customerId: actor.customerId,
          iban,
          holder,
          nif,
          entity: spanishBankOf(iban) ?? body.entity?.trim() ?? '',
          alias: body.alias?.trim() ?? '',
        });
        if (creditor) {
          await sepaMandates.sign(sql, {
            customerId: actor.customerId,
            paymentMethodId: methodId,
            creditor,
            debtorName: holder,
            debtorNif: nif,
            iban,
            language: body.mandate_language ?? 'es',
            evidence,
            now: new Date(),
          });
        }
        return methodId;
      });
      return { method: await one(actor, id) };
    },

    /**
     * Signs the SEPA mandate of a bank account already saved (one saved before mandates existed,
     * or whose mandate a newer one replaced), with the same explicit acceptance and evidence as
     * adding an account, without the IBAN typed again. Another customer's account is a 404; one
     * with an active mandate a 409 `mandate_active`; a tenant without a creditor identifier a 409
     * `mandates_unavailable`.
     */
    async signMandate(
      actor: Actor,
      id: string,
      body: TSignBankAccountMandateRequest,
      evidence: SignatureEvidence,
    ) {
      await db.withTenant(actor.tenantId, async (sql) => {
        const row = await repository.find(sql, actor.customerId, id, true);
        if (!row || row.kind !== 'bank_account' || !row.iban) throw notFound('Bank account');
        refuseUnsignable(row.iban, row.holder);
        const creditor = await sepaMandates.requireAcceptance(sql, body.mandate_accepted);
        if (!creditor) {
          throw new AppError(409, ErrorCode.mandatesUnavailable, 'No mandates in this portal');
        }
        await sepaMandates.refuseIfActive(sql, actor.customerId, id);
        await sepaMandates.sign(sql, {
          customerId: actor.customerId,
          paymentMethodId: id,
          creditor,
          debtorName: row.holder,
          debtorNif: row.nif ?? '',
          iban: row.iban,
          language: body.mandate_language ?? 'es',
          evidence,
          now: new Date(),
        });
      });
      return { method: await one(actor, id) };
    },

    async update(
      actor: Actor,
      id: string,
      changes: { alias?: string | undefined; holder?: string | undefined },
    ) {
      await db.withTenant(actor.tenantId, async (sql) => {
        const row = await repository.find(sql, actor.customerId, id, true);
        if (!row) throw notFound('Payment method');
        // A card's holder is what the bank says; only bank accounts take a new holder.
        await repository.update(sql, id, {
          alias: changes.alias,
          holder: row.kind === 'bank_account' ? changes.holder : undefined,
        });
      });
      return { method: await one(actor, id) };
    },

    async remove(actor: Actor, id: string) {
      await db.withTenant(actor.tenantId, async (sql) => {
        const row = await repository.find(sql, actor.customerId, id, true);
        if (!row) throw notFound('Payment method');
        if (
          row.is_main ||
          row.pending_request ||
          (await repository.usedByPendingPayment(sql, id))
        ) {
          throw new AppError(
            409,
            ErrorCode.methodInUse,
            'The main method, or one in use, cannot be deleted',
          );
        }
        await repository.softDelete(sql, id);
        await turnOffAutoPayForCard(sql, actor.customerId, id);
        if (row.kind === 'bank_account') await sepaMandates.revokeForMethod(sql, id);
      });
      return { count: 1 };
    },

    /** Files a request the provider reviews; asking twice answers the pending request. */
    async request(actor: Actor, id: string, kind: 'main_change' | 'verification') {
      return db.withTenant(actor.tenantId, async (sql) => {
        const row = await repository.find(sql, actor.customerId, id, true);
        if (!row) throw notFound('Payment method');
        if (kind === 'main_change' && row.is_main) {
          throw new AppError(409, ErrorCode.conflict, 'Already the main method');
        }
        if (
          kind === 'verification' &&
          (row.kind !== 'bank_account' || row.status !== 'unverified')
        ) {
          throw new AppError(409, ErrorCode.conflict, 'Nothing to verify');
        }
        const existing = await repository.pendingRequest(sql, id, kind);
        if (existing) return { request_id: existing.id, status: 'pending' as const };
        await checkCustomerLimits(sql, actor.customerId, 'request');
        const requestId = await repository.insertRequest(sql, {
          customerId: actor.customerId,
          methodId: id,
          kind,
        });
        // The provider reviews it in its back office: told by webhook, in this transaction.
        await webhookEvents.methodRequestCreated(sql, requestId);
        return { request_id: requestId, status: 'pending' as const };
      });
    },

    async transferInfo(actor: Actor): Promise<TBankTransferInfo> {
      const row = await db.withTenant(actor.tenantId, (sql) =>
        repository.transferInfo(sql, actor.customerId),
      );
      if (!row?.bank_iban)
        throw new AppError(404, ErrorCode.notFound, 'No bank account for transfers');
      const reference = `Cliente ${row.code}`;
      const iban = friendlyFormatIBAN(row.bank_iban) ?? row.bank_iban;
      return {
        iban,
        beneficiary: row.bank_beneficiary,
        reference,
        epc_qr: epcQrPayload({ beneficiary: row.bank_beneficiary, iban: row.bank_iban, reference }),
      };
    },
  };
}
