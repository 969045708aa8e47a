import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** Provider integration: ingestion (issue 10). */
export default async function ingestionRoutes(_app: FastifyInstance, _ctx: AppContext) {}
