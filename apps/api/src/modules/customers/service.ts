import type { TUserProfile } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../lib/app-error.ts';
import { createCustomerRepository } from './repository.ts';

export function createCustomerService(db: Database) {
  const repository = createCustomerRepository();
  return {
    /** The signed-in customer's profile by id or code; anyone else's is a 404, like an unknown one. */
    async ownProfile(
      actor: { tenantId: string; customerId: string },
      ref: string,
    ): Promise<TUserProfile> {
      const profile = await db.readTenant(actor.tenantId, (sql) =>
        repository.findOwnProfile(sql, actor.customerId, ref),
      );
      if (!profile) throw notFound('Customer');
      return profile;
    },
  };
}
