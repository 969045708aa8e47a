import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** Provider integration: webhooks (issue 10). */
export default async function webhooksRoutes(_app: FastifyInstance, _ctx: AppContext) {}
