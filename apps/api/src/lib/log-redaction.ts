import type { FastifyRequest } from 'fastify';

/**
 * A signed document link (`/invoice/pdf/<token>`; `/documents/receipt|statement|invoices-zip/<token>`
 * of issue 23, item 3): the path itself opens the document.
 */
const signedPath = /(\/invoice\/pdf\/|\/documents\/(?:receipt|statement|invoices-zip)\/)[^/?#]+/;

/**
 * A request's URL as its log line shows it: the path, with the signed part of a signed link left
 * out, and the query string's parameter names without their values. A URL can carry what grants
 * access (the reset and invitation links' `token`, an OpenID `code`, a signed PDF link), and
 * nothing that grants access is ever logged, at any level, in any mode (SECURITY.md).
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at < 0 ? url : url.slice(0, at)).replace(signedPath, '$1[redacted]');
  if (at < 0) return path;
  const names = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      return pair.includes('=') ? `${name}=[redacted]` : name;
    });
  return names.length > 0 ? `${path}?${names.join('&')}` : path;
}

/** Fastify's own `req` serializer, with the URL redacted (`redactUrl`). */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket ? request.socket.remotePort : undefined,
  };
}
