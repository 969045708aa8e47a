import type { FastifyRequest } from 'fastify';

/**
 * A signed document link (`/invoice/pdf/<token>`; `/documents/receipt|statement|invoices-zip/<token>`
 * of issue 23, item 3): the path itself opens the document.
 */
const signedPath =
  /(\/invoice\/pdf\/|\/sepa-mandates\/pdf\/|\/documents\/(?:receipt|statement|invoices-zip)\/)[^/?#]+/;

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

/** What a log line keeps of an error besides its type, message and stack: facts, never data. */
const errorFacts = [
  'code',
  'errno',
  'syscall',
  'statusCode',
  'status',
  'responseCode',
  'severity',
  'routine',
  'constraint',
  'table',
  'column',
] as const;

/** `user:password@` in any URL a message quotes. */
const credentialsInUrl = /(\/\/)[^\s/@]*:[^\s/@]*@/g;
const scrub = (text: string): string => text.replace(credentialsInUrl, '$1[redacted]@');

/**
 * The `err` of a log line: type, message, stack, a few facts (code, errno, status...) and its
 * cause, with any `user:password@` of a quoted URL left out. Not every enumerable property, as
 * pino's default does: libraries attach what they were given to their errors (ioredis the refused
 * AUTH command with the Redis password, Node's URL parser the whole SMTP URL with its password).
 */
export type LoggedError = { type: string; message: string; stack: string; [fact: string]: unknown };

export function errorForLog(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error))
    return { type: typeof error, message: scrub(String(error)), stack: '' };
  const out: LoggedError = {
    type: error.constructor.name,
    message: scrub(error.message),
    stack: scrub(error.stack ?? ''),
  };
  const fields = error as unknown as Record<string, unknown>;
  for (const key of errorFacts) {
    const value = fields[key];
    if (typeof value === 'string') out[key] = scrub(value);
    else if (typeof value === 'number') out[key] = value;
  }
  const command = fields.command;
  // ioredis: the command's name only; its arguments may be AUTH's password.
  if (command && typeof command === 'object' && 'name' in command)
    out.command = { name: String((command as { name: unknown }).name) };
  if (typeof command === 'string') out.command = scrub(command).split(' ')[0];
  if (error.cause !== undefined && depth < 3) out.cause = errorForLog(error.cause, depth + 1);
  return out;
}
