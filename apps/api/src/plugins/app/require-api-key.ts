import { ErrorCode } from '@portal/contract';
import type { onRequestHookHandler } from 'fastify';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { findApiKey, isApiKeyShaped, touchApiKey } from '../../modules/admin/api-keys.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    /** The tenant API key that authenticated an `/admin/...` call, set by `requireApiKey`. */
    apiKeyId: string;
  }
}

/** `last_used_at` is written at most this often per key, not on every call of a busy integration. */
const touchEveryMillis = 60_000;

/**
 * The check of every provider-integration call: `Authorization: Bearer ptk_...`, a live key of the
 * tenant in the path. A customer's access token, another tenant's key or a revoked key is a 401, and
 * the answer is the same in every case. It runs on the request (an `onRequest` hook of each such
 * route), before the body is read: without a valid key the answer is 401 whatever the body.
 */
export function requireApiKey(db: Database): onRequestHookHandler {
  return async (request) => {
    const header = request.headers.authorization;
    const key = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!isApiKeyShaped(key)) throw new AppError(401, ErrorCode.unauthorized, 'Invalid API key');
    const tenantId = request.tenant.id;
    const found = await db.readTenant(tenantId, (sql) => findApiKey(sql, key));
    if (!found) throw new AppError(401, ErrorCode.unauthorized, 'Invalid API key');
    request.apiKeyId = found.id;
    if (!found.last_used_at || Date.now() - found.last_used_at.getTime() > touchEveryMillis) {
      await db.withTenant(tenantId, (sql) => touchApiKey(sql, found.id));
    }
  };
}
