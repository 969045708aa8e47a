import {
  ErrorCode,
  fiscalDataFields,
  fiscalDecisionShownDays,
  normalizeTaxId,
  type TFiscalData,
  type TFiscalDataChangeRequest,
  type TFiscalDataRequest,
  type TFiscalDataRequests,
  type TFiscalRequestStatus,
} from '@portal/contract';
import type {
  TAdminFiscalDataRequest,
  TAdminFiscalDataRequests,
  TFiscalDataDecision,
} from '@portal/contract/admin-fiscal-data';
import type { Database, SqlQuery } from '../../db/database.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { pageOf } from '../../lib/paging.ts';
import { applyFiscalData, lockFiscalData } from '../customers/service.ts';
import { createNotification } from '../notifications/service.ts';
import { webhookEvents } from '../webhooks/events.ts';
import type { FiscalDecisionMail } from './decision-mail.ts';
import { createFiscalDataRepository, type FiscalRequestRow } from './repository.ts';

type Actor = { tenantId: string; customerId: string };

const toRequest = (r: FiscalRequestRow): TFiscalDataRequest => ({
  id: r.id,
  status: r.status,
  requested: r.requested,
  comment: r.comment,
  reason: r.reason,
  created_at: r.created_at.toISOString(),
  closed_at: r.closed_at ? r.closed_at.toISOString() : null,
});

const toAdminRequest = (r: FiscalRequestRow): TAdminFiscalDataRequest => ({
  ...toRequest(r),
  customer_code: r.customer_code,
  previous: r.previous,
});

const closed = (status: TFiscalRequestStatus) =>
  new AppError(409, ErrorCode.fiscalRequestClosed, `The request is already ${status}`);

/**
 * Fiscal data changes the organisation reviews (issue 23, item 1; contract fiscal-data.ts). The
 * customer's fiscal data is locked (customers module) first in every write, so a request, its
 * withdrawal and decisions about the same customer take their turns: two decisions at once end in
 * one decision and one 409. Approving writes the new data through the customers module, the one
 * writer of `customers`; the customer is told by a notification in the same transaction and by an
 * e-mail once it is committed.
 */
export function createFiscalDataService(deps: {
  db: Database;
  sendDecisionMail: (mail: FiscalDecisionMail) => Promise<void>;
  onBackgroundError: (error: unknown) => void;
}) {
  const { db } = deps;
  const repository = createFiscalDataRepository();

  const stateIn = async (sql: SqlQuery, customerId: string): Promise<TFiscalDataRequests> => {
    const pending = await repository.pending(sql, customerId);
    const decided = await repository.lastDecision(sql, customerId, fiscalDecisionShownDays);
    return {
      pending: pending ? toRequest(pending) : null,
      last_decision: decided ? toRequest(decided) : null,
    };
  };

  /** The customer's own request by id, after locking their fiscal data; another's is a 404. */
  const ownRequest = async (sql: SqlQuery, actor: Actor, id: string) => {
    if (!(await lockFiscalData(sql, actor.customerId))) throw notFound('Customer');
    const row = await repository.findOwn(sql, actor.customerId, id);
    if (!row) throw notFound('Fiscal data request');
    return row;
  };

  return {
    state(actor: Actor): Promise<TFiscalDataRequests> {
      return db.withTenant(actor.tenantId, (sql) => stateIn(sql, actor.customerId));
    },

    /**
     * A new request. Refused with a 409 while another waits (`fiscal_request_pending`: the
     * customer withdraws it first, so the organisation never decides a request the customer has
     * silently replaced) and when it asks for the data as it stands (`fiscal_data_unchanged`).
     */
    async request(actor: Actor, body: TFiscalDataChangeRequest): Promise<TFiscalDataRequests> {
      const requested: TFiscalData = {
        invoice_name: body.invoice_name.trim(),
        nif: normalizeTaxId(body.nif),
        address: body.address.trim(),
        city: body.city.trim(),
        country: body.country.trim(),
      };
      return db.withTenant(actor.tenantId, async (sql) => {
        const current = await lockFiscalData(sql, actor.customerId);
        if (!current) throw notFound('Customer');
        if (await repository.pending(sql, actor.customerId))
          throw new AppError(409, ErrorCode.fiscalRequestPending, 'A request already waits');
        if (fiscalDataFields.every((f) => current[f] === requested[f]))
          throw new AppError(409, ErrorCode.fiscalDataUnchanged, 'Nothing to change');
        const id = await repository.insert(sql, {
          customerId: actor.customerId,
          requested,
          previous: current,
          comment: body.comment?.trim() ?? '',
        });
        await webhookEvents.fiscalDataChangeRequested(sql, id);
        return stateIn(sql, actor.customerId);
      });
    },

    /** The customer takes back a waiting request; a decided one is a 409. */
    withdraw(actor: Actor, id: string): Promise<TFiscalDataRequests> {
      return db.withTenant(actor.tenantId, async (sql) => {
        const row = await ownRequest(sql, actor, id);
        if (row.status !== 'pending') throw closed(row.status);
        await repository.close(sql, row.id, 'withdrawn', '');
        await webhookEvents.fiscalDataChangeWithdrawn(sql, row.id);
        return stateIn(sql, actor.customerId);
      });
    },

    /** Hides the outcome of a decided request from the profile (again: nothing more happens). */
    dismiss(actor: Actor, id: string): Promise<TFiscalDataRequests> {
      return db.withTenant(actor.tenantId, async (sql) => {
        const row = await ownRequest(sql, actor, id);
        if (row.status === 'pending')
          throw new AppError(409, ErrorCode.conflict, 'The request has not been decided');
        await repository.dismiss(sql, row.id);
        return stateIn(sql, actor.customerId);
      });
    },

    /** The organisation's list (GET /admin/fiscal-data-requests). */
    async list(
      tenantId: string,
      query: {
        status?: TFiscalRequestStatus | undefined;
        limit: number;
        before?: string | undefined;
      },
    ): Promise<TAdminFiscalDataRequests> {
      const rows = await db.withTenant(tenantId, (sql) =>
        repository.list(sql, {
          status: query.status,
          limit: query.limit + 1,
          before: query.before,
        }),
      );
      const { page, nextCursor } = pageOf(rows, query.limit);
      return { requests: page.map(toAdminRequest), next_cursor: nextCursor };
    },

    /**
     * The organisation approves (the requested data becomes the customer's) or rejects (with the
     * reason the customer reads). A request already decided or withdrawn is a 409, even for the
     * same decision: a decision is taken once.
     */
    async decide(
      tenantId: string,
      id: string,
      decision: TFiscalDataDecision,
    ): Promise<TAdminFiscalDataRequest> {
      const reason = decision.decision === 'rejected' ? decision.reason.trim() : '';
      const { row, mailee } = await db.withTenant(tenantId, async (sql) => {
        const seen = await repository.find(sql, id);
        if (!seen) throw notFound('Fiscal data request');
        // The customer first, then the request: the order of the customer's own calls.
        await lockFiscalData(sql, seen.customer_id);
        const request = await repository.find(sql, id, true);
        if (!request) throw notFound('Fiscal data request');
        if (request.status !== 'pending') throw closed(request.status);
        if (decision.decision === 'approved')
          await applyFiscalData(sql, request.customer_id, request);
        if (!(await repository.close(sql, request.id, decision.decision, reason)))
          throw closed(request.status);
        await createNotification(sql, {
          customerId: request.customer_id,
          type: 'fiscal_data_reviewed',
          params: { answer: decision.decision, reason },
        });
        const after = await repository.find(sql, request.id);
        if (!after) throw notFound('Fiscal data request');
        return { row: after, mailee: await repository.mailee(sql, request.customer_id) };
      });
      if (mailee) {
        deps
          .sendDecisionMail({
            tenantId,
            customer: mailee,
            decision: decision.decision,
            requested: row.requested,
            reason,
          })
          .catch(deps.onBackgroundError);
      }
      return toAdminRequest(row);
    },
  };
}
