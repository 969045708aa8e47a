import type { TRouteDef } from './routes.ts';

/** Ingestion calls: bulk upserts keyed by the provider's own ids (filled in by issue 10). */
export const ingestionRoutes = {} satisfies Record<string, TRouteDef>;
