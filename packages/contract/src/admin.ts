import { ingestionRoutes } from './admin-ingestion.ts';
import { signInMethodRoutes } from './admin-sign-in.ts';
import { webhookRoutes } from './admin-webhooks.ts';
import { fiscalDataAdminRoutes } from './admin-fiscal-data.ts';
import { returnedDebitRoutes } from './admin-returned-debits.ts';
import { invoiceThreadAdminRoutes } from './admin-invoice-threads.ts';
import { sepaMandateAdminRoutes } from './sepa-mandates.ts';

/**
 * The provider's integration API (issue 10), under `/{tenant}/api/1.0/admin/...` and authenticated
 * by a tenant API key (`auth: 'apiKey'`), never by a customer token. Kept apart from `routes` (the
 * customer calls of spec §7) so that the web app never ships these schemas.
 */
export const adminRoutes = {
  ...ingestionRoutes,
  ...webhookRoutes,
  ...signInMethodRoutes,
  ...fiscalDataAdminRoutes,
  ...returnedDebitRoutes,
  ...invoiceThreadAdminRoutes,
  ...sepaMandateAdminRoutes,
};
export type TAdminRouteName = keyof typeof adminRoutes;

/** The form of a tenant API key: `ptk_` and 43 base64url characters (256 random bits). */
export const apiKeyPattern = /^ptk_[A-Za-z0-9_-]{43}$/;
