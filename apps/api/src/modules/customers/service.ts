import {
  contactDataFields,
  fiscalDataFields,
  type TContactData,
  type TFiscalData,
  type TUserProfile,
} from '@portal/contract';
import type { TContactChangesResponse } from '@portal/contract/admin-ingestion';
import type { Database, SqlQuery } from '../../db/database.ts';
import { notFound } from '../../lib/app-error.ts';
import { pageOf } from '../../lib/paging.ts';
import { webhookEvents } from '../webhooks/events.ts';
import {
  judgePortalChanges,
  type PortalChangeVerdict,
  type ProviderWrite,
} from './portal-changes.ts';
import { createCustomerRepository } from './repository.ts';

type Actor = { tenantId: string; customerId: string };

/**
 * The customer's fiscal data, locked in the caller's transaction (the fiscal-data module asks
 * for a change, or applies one, while no other can); undefined for an unknown customer.
 */
export function lockFiscalData(
  sql: SqlQuery,
  customerId: string,
): Promise<TFiscalData | undefined> {
  return createCustomerRepository().lockFiscalData(sql, customerId);
}

/**
 * Writes approved fiscal data to the customer (a decision of the organisation): the fields the
 * customer asked to change (`requested` against `previous`, the data they saw when asking); the
 * others keep what the customer has now, which the provider may have changed since (before
 * session 38 the whole snapshot was written back, and the provider's newer value, marked as the
 * portal's, was then held back from its next write). The fields it changes are kept from a stale
 * provider write like the customer's contact data (docs/decisions/035).
 */
export async function applyFiscalData(
  sql: SqlQuery,
  customerId: string,
  request: { requested: TFiscalData; previous: TFiscalData },
): Promise<void> {
  const repository = createCustomerRepository();
  const stored = await repository.lockFiscalData(sql, customerId);
  const asked = fiscalDataFields.filter(
    (field) => request.requested[field] !== request.previous[field],
  );
  const data: TFiscalData = { ...request.requested };
  for (const field of fiscalDataFields)
    if (!asked.includes(field)) data[field] = stored?.[field] ?? request.previous[field];
  await repository.updateFiscalData(sql, customerId, data);
  await repository.markPortalChanges(
    sql,
    customerId,
    asked.filter((field) => (stored?.[field] ?? '') !== data[field]),
  );
}

/**
 * A provider's write of these customers (PUT /admin/customers) against what the portal changed
 * that the provider may not have yet: which fields keep the portal's value (reported as `kept`),
 * and the changes the provider now has, forgotten here (docs/decisions/035). Locks the customers.
 */
export async function judgeProviderWrite(
  sql: SqlQuery,
  writes: readonly ProviderWrite[],
): Promise<PortalChangeVerdict> {
  const repository = createCustomerRepository();
  const pending = await repository.portalChangesOf(
    sql,
    writes.map((w) => w.code),
  );
  const verdict = judgePortalChanges(writes, pending);
  await repository.settlePortalChanges(sql, verdict.settled);
  return verdict;
}

export function createCustomerService(db: Database) {
  const repository = createCustomerRepository();
  return {
    /** The signed-in customer's profile by id or code; anyone else's is a 404, like an unknown one. */
    async ownProfile(actor: Actor, ref: string): Promise<TUserProfile> {
      const profile = await db.readTenant(actor.tenantId, (sql) =>
        repository.findOwnProfile(sql, actor.customerId, ref),
      );
      if (!profile) throw notFound('Customer');
      return profile;
    },

    /**
     * The customer's telephone, invoice e-mail and postal address (issue 23, item 1). Only what
     * changed is kept as a change and told to the provider (webhook `customer.contact_updated`),
     * in the same transaction; saving the same values again changes nothing and tells nobody.
     */
    async updateContactData(actor: Actor, data: TContactData): Promise<TUserProfile> {
      const profile = await db.withTenant(actor.tenantId, async (sql) => {
        const stored = await repository.lockContactData(sql, actor.customerId);
        if (!stored) return undefined;
        const changed: Partial<TContactData> = {};
        for (const field of contactDataFields)
          if (stored[field] !== data[field]) changed[field] = data[field];
        if (Object.keys(changed).length > 0) {
          await repository.updateContactData(sql, actor.customerId, data);
          const changeId = await repository.insertContactChange(sql, actor.customerId, changed);
          // Until the provider has them, its writes do not revert them (docs/decisions/035).
          await repository.markPortalChanges(
            sql,
            actor.customerId,
            contactDataFields.filter((field) => field in changed),
          );
          await webhookEvents.customerContactUpdated(sql, changeId);
        }
        return repository.findOwnProfile(sql, actor.customerId, actor.customerId);
      });
      if (!profile) throw notFound('Customer');
      return profile;
    },

    /** The provider's read side of the same changes (GET /admin/customer-contact-changes). */
    async listContactChanges(
      tenantId: string,
      query: { limit: number; before?: string | undefined },
    ): Promise<TContactChangesResponse> {
      const rows = await db.withTenant(tenantId, (sql) =>
        repository.listContactChanges(sql, { limit: query.limit + 1, before: query.before }),
      );
      const { page, nextCursor } = pageOf(rows, query.limit);
      return {
        changes: page.map((r) => ({
          id: r.id,
          customer_code: r.customer_code,
          changed: r.changed,
          changed_at: r.changed_at.toISOString(),
        })),
        next_cursor: nextCursor,
      };
    },
  };
}
