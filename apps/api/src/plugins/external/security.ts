import helmet from 'helmet';
import fp from 'fastify-plugin';

/** Redsys' real hosts (test and production): the payment form is posted there by the browser. */
export const redsysHosts = ['https://sis-t.redsys.es:25443', 'https://sis.redsys.es'];

/**
 * Security headers. The access token lives in local storage (spec §3), so the Content-Security-
 * Policy forbids every inline or foreign script: an injected script could read the token.
 */
/** The portal's helmet options: the single source of its security headers (the bench reuses it). */
export function helmetOptions({
  paymentFormOrigins,
  tls,
}: {
  paymentFormOrigins: string[];
  tls: boolean;
}) {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'", ...redsysHosts, ...paymentFormOrigins],
        upgradeInsecureRequests: tls ? [] : null,
      },
    },
    // HSTS only means something over TLS; on plain http (the local demo) it is left out.
    strictTransportSecurity: tls
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : (false as const),
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * The headers helmet's middleware sets, read once at start-up from a recording response: they are
 * the same for every answer (no nonce), so each request only copies them.
 */
export function securityHeaders(
  options: Parameters<typeof helmetOptions>[0],
): Record<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  let failure: unknown;
  // helmet only reads the response's setHeader/removeHeader; it calls back at once (no I/O).
  helmet(helmetOptions(options))(
    {} as Parameters<ReturnType<typeof helmet>>[0],
    recorder as unknown as Parameters<ReturnType<typeof helmet>>[1],
    (error?: unknown) => {
      failure = error;
    },
  );
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return Object.fromEntries(headers);
}

/**
 * Every answer carries the security headers as fastify reply headers, written with the status line
 * in one go. Running helmet's middleware per request (setHeader on the raw response, which Node
 * then merges with fastify's headers) cost ~50 µs of CPU a request (bench/README.md).
 */
export default fp<{ paymentFormOrigins: string[]; tls: boolean }>(
  async (app, options) => {
    const headers = securityHeaders(options);
    app.addHook('onRequest', (_request, reply, done) => {
      void reply.headers(headers);
      done();
    });
  },
  { name: 'security' },
);
