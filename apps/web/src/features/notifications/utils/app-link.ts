import { parseNotificationLink, type TNotificationLink } from '@portal/contract/links';

/**
 * Where "Acceder" may lead: a page of this app, or an `https://` address; anything else (`//host`,
 * `/\t/host`, `javascript:`...) is no link at all. The ingestion API refuses such links with the
 * same predicate (packages/contract/src/links.ts); this check is for links stored before it did.
 */
export function appLinkOf(link: string | null | undefined): TNotificationLink | null {
  return parseNotificationLink(link);
}
