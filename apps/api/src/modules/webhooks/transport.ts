import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import {
  guardedLookup,
  isPublicAddress,
  RefusedAddressError,
  type ResolveAll,
  type WebhookTargetPolicy,
} from './address.ts';

export type PostAnswer = {
  status: number;
  statusText: string;
  /** The `location` header of a redirect (never followed). */
  location: string | null;
  /** The start of the body, whitespace collapsed; the rest is not read. */
  text: string;
};

/**
 * One POST with `node:http(s)` (not `fetch`: its socket `lookup` cannot be replaced without the
 * undici package), so that under `public-only` the address checked is the address connected to.
 * A literal IP in the URL never goes through `lookup` and is checked here first. Redirects are not
 * followed; the whole exchange is bounded by `timeoutMs`; at most `maxTextLength` characters of
 * the answer are read. Rejects with a `RefusedAddressError`, a network error, or an `AbortError`.
 */
export function postJson(
  url: string,
  options: {
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
    maxTextLength: number;
    targets: WebhookTargetPolicy;
    /** Name resolution of the socket (tests answer it without DNS). */
    resolveAll?: ResolveAll | undefined;
  },
): Promise<PostAnswer> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (options.targets === 'public-only' && isIP(host) && !isPublicAddress(host)) {
    return Promise.reject(new RefusedAddressError(host));
  }
  // An http URL kept from a time WEBHOOK_ALLOW_PRIVATE was on is not sent in clear now.
  if (options.targets === 'public-only' && target.protocol !== 'https:') {
    return Promise.reject(new Error('refused: plain http to a public address'));
  }
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostAnswer>((resolve, reject) => {
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-length': Buffer.byteLength(options.body) },
        lookup: guardedLookup(options.targets, options.resolveAll),
        signal: AbortSignal.timeout(options.timeoutMs),
        // A fresh connection each time: a pooled socket would skip the lookup and its check.
        agent: false,
      },
      (res: IncomingMessage) => {
        const decoder = new TextDecoder();
        let text = '';
        const finish = () => {
          res.destroy();
          const location = res.headers.location;
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            location: typeof location === 'string' ? location : null,
            text: text.replace(/\s+/g, ' ').trim(),
          });
        };
        res.on('data', (chunk: Buffer) => {
          text += decoder.decode(chunk, { stream: true });
          if (text.length >= options.maxTextLength) finish();
        });
        // An answer cut short (or timed out) while its body is read: what arrived is enough.
        res.once('end', finish);
        res.on('error', finish);
        res.once('close', finish);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
