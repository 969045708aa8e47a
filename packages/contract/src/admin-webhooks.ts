import type { TRouteDef } from './routes.ts';

/** Webhook configuration and delivery log (filled in by issue 10). */
export const webhookRoutes = {} satisfies Record<string, TRouteDef>;
