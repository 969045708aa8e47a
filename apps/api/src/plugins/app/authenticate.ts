import { ErrorCode } from '@portal/contract';
import type { preValidationHookHandler } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { Revocations } from '../../modules/auth/revocations.ts';
import type { AccessTokens } from '../../modules/auth/tokens.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    /** The signed-in customer's id, set by `requireCustomer`. */
    customerId: string;
    /** The session (refresh family) of the access token, set by `requireCustomer`. */
    sessionId: string;
  }
}

/**
 * The bearer check of every customer call: a missing or invalid token is 401; an expired one is
 * 403 `token_expired`, which the web app answers with one refresh and a retry (spec §4). A token
 * of a session that was ended (logout, password reset, a replayed refresh token) is 401 at once.
 */
export function requireCustomer(
  tokens: AccessTokens,
  revocations: Revocations,
): preValidationHookHandler {
  return async (request) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer ([\w-]+\.[\w-]+\.[\w-]*)$/.exec(header) : null;
    if (!match?.[1]) throw new AppError(401, ErrorCode.unauthorized, 'Not signed in');
    const verdict = await tokens.verify(match[1], request.tenant.id);
    if (!verdict.ok) {
      throw verdict.reason === 'expired'
        ? new AppError(403, ErrorCode.tokenExpired, 'Access token expired')
        : new AppError(401, ErrorCode.unauthorized, 'Not signed in');
    }
    if (await revocations.isRevoked(verdict.claims.tenantId, verdict.claims.sessionId)) {
      throw new AppError(401, ErrorCode.unauthorized, 'Not signed in');
    }
    request.customerId = verdict.claims.customerId;
    request.sessionId = verdict.claims.sessionId;
  };
}
