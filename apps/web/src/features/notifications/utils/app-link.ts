/**
 * Where "Acceder" may lead: a path of this app (`/invoice-detail/F-1`), never another site; a
 * notification's `link` comes from the server, and a protocol-relative `//host` or a `/\\host` that
 * browsers read as one must not turn the inbox into an open redirect.
 */
export function appLinkOf(link: string | null | undefined): string | null {
  if (!link || !link.startsWith('/') || link.startsWith('//') || link.startsWith('/\\'))
    return null;
  return link;
}
