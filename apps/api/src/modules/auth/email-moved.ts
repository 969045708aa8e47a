import type { Sql } from '../../db/database.ts';
import { createAuthRepository } from './repository.ts';

const repository = createAuthRepository();

/**
 * The sign-in e-mail of these customers changed (the provider's batch moved them to another
 * address; the owner's own confirmed change does the same in service.ts): what proved the owner
 * through the old address ends (reset links and invitations, sign-in links, pending e-mail
 * changes, provider accounts linked by it, and the sessions those accounts opened). In the caller's
 * transaction; answers the sessions ended, for `Revocations.revoked` once it has committed.
 */
export const signInEmailMoved = (sql: Sql, customerIds: string[]): Promise<string[]> =>
  repository.spendAfterEmailMoved(sql, customerIds);
