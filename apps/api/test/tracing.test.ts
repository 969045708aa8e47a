import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { isoToApi, todayIso } from '../src/lib/dates.ts';
import { adminUrl, databaseUrl } from './pg-server.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** Writes the files of every CommonJS module loaded (the SDK's packages are) when the process exits. */
const loadedModulesPreload = fileURLToPath(new URL('./loaded-modules.mjs', import.meta.url));

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A real OTLP/HTTP receiver: every POST to /v1/traces kept as the text it was sent. */
async function startReceiver() {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        expect(request.headers['content-type']).toBe('application/json');
        bodies.push(body);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => server.close() };
}

/** The real process entry (`main.ts`, what `node apps/api/dist/server.js` runs), from source. */
function startServer(env: Record<string, string>, modulesFile: string) {
  const child = spawn(
    process.execPath,
    ['--import', loadedModulesPreload, '--import', 'tsx', 'apps/api/src/main.ts'],
    {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? tmpdir(),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        WEB_DIST: '/nonexistent-web-dist',
        APP_SECRET: randomBytes(32).toString('base64'),
        REDSYS_SIMULATOR: 'false',
        RECONCILE_INTERVAL_SECONDS: '0',
        OUTBOX_INTERVAL_SECONDS: '0',
        LOADED_MODULES_FILE: modulesFile,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const stderr = { text: '' };
  child.stderr.on('data', (chunk: Buffer) => (stderr.text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, stderr, exited };
}

async function waitUntilLive(base: string, child: { exitCode: number | null }, stderr: string) {
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    const live = await fetch(`${base}/livez`).then(
      (r) => r.ok,
      () => false,
    );
    if (live) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not start: ${stderr}`);
}

const loadedModules = (file: string): string[] =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean);
/**
 * A module of the tracing SDK, its exporter or an instrumentation. Not `@opentelemetry/api`: the
 * no-op facade that prom-client loads for its exemplars, which records nothing without an SDK.
 */
const isTracingModule = (file: string) =>
  /[\\/](@opentelemetry[\\/](?!api[\\/])|@fastify[\\/]otel[\\/])/.test(file);

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: AnyValue }[];
};
type OtlpBody = {
  resourceSpans: {
    resource: { attributes: { key: string; value: AnyValue }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
};
type Span = OtlpSpan & { scope: string; attr: Record<string, string | number | boolean> };

const valueOf = (v: AnyValue) => v.stringValue ?? (v.intValue ? Number(v.intValue) : v.boolValue);
const attributesOf = (list: { key: string; value: AnyValue }[]) =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value) ?? ''])) as Record<
    string,
    string | number | boolean
  >;

const template = inject('pgTemplate');

/**
 * Traces (issue 22, docs/operations.md "Traces"): with OTEL_EXPORTER_OTLP_ENDPOINT the server
 * sends OTLP/HTTP JSON to it, with the route template, the status, the tenant and PostgreSQL's
 * queries, and nothing that grants access; without it, the SDK is not even loaded. Process-level:
 * the real entry point against the real PostgreSQL (the embedded database has no `pg` to trace).
 */
describe.skipIf(!template)('traces', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-tracing-'));
  let url = '';
  const databases: string[] = [];

  beforeAll(async () => {
    const name = `${template}_otel_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    databases.push(name);
    url = databaseUrl(name);
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports the request, its route, status, tenant and queries, and no secret', async () => {
    const receiver = await startReceiver();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const modulesFile = join(dir, 'on.txt');
    const { child, stderr, exited } = startServer(
      {
        PORT: String(port),
        DATABASE_URL: url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
        // No batch leaves on its own during the test: the spans arrive because closing the
        // server sends them.
        OTEL_BSP_SCHEDULE_DELAY: '60000',
      },
      modulesFile,
    );
    // Whatever grants access, or is the customer's own: none of it may leave in a trace.
    const secrets: string[] = [];
    try {
      await waitUntilLive(base, child, stderr.text);
      const login = await fetch(`${base}/demo/api/1.0/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: demoEmail, password: demoPassword }),
      });
      expect(login.status).toBe(200);
      const { access_token: token } = (await login.json()) as { access_token: string };
      const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
      secrets.push(token, demoPassword, ...cookies.map((c) => c.slice(c.indexOf('=') + 1)));
      const headers = {
        authorization: `Bearer ${token}`,
        cookie: cookies.join('; '),
        'content-type': 'application/json',
      };

      // A secret in a query string (a reset link's token, an OpenID code).
      const inQuery = randomBytes(24).toString('hex');
      secrets.push(inQuery);
      const today = isoToApi(todayIso());
      const range = {
        datefrom: `${Number(today.slice(0, 4)) - 5}${today.slice(4)}`,
        dateto: today,
      };
      const invoices = await fetch(`${base}/demo/api/1.0/invoices?token=${inQuery}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...range, page: '1' }),
      });
      expect(invoices.status).toBe(200);
      const [latest] = ((await invoices.json()) as { invoices: { invoice_id: string }[] }).invoices;

      // A signed link: the path itself opens the PDF.
      const link = await fetch(`${base}/demo/api/1.0/invoice/pdf`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ invoice_id: latest?.invoice_id }),
      });
      const { url: pdfUrl } = (await link.json()) as { url: string };
      secrets.push(pdfUrl.slice(pdfUrl.lastIndexOf('/') + 1));
      expect((await fetch(`${base}${pdfUrl}`)).status).toBe(200);

      // A body that does not parse (a password sent as the whole body): an error's text, which
      // can quote its input, is not exported.
      const inBody = `x${randomBytes(8).toString('hex').slice(0, 9)}`;
      secrets.push(inBody);
      const broken = await fetch(`${base}/demo/api/1.0/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: inBody,
      });
      expect(broken.status).toBe(400);
    } finally {
      // Closing the server sends what is left of the spans before the process exits.
      child.kill('SIGTERM');
    }
    expect(await exited, stderr.text).toBe(0);
    receiver.close();

    const payload = receiver.bodies.join('\n');
    expect(receiver.bodies.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(payload).not.toContain(secret);
      expect(payload).not.toContain(encodeURIComponent(secret));
    }

    const bodies = receiver.bodies.map((b) => JSON.parse(b) as OtlpBody);
    const resource = attributesOf(bodies[0]?.resourceSpans[0]?.resource.attributes ?? []);
    expect(resource).toMatchObject({
      'service.name': 'oficina-online-api',
      'deployment.environment.name': 'test',
    });
    const spans: Span[] = bodies.flatMap((b) =>
      b.resourceSpans.flatMap((r) =>
        r.scopeSpans.flatMap((s) =>
          s.spans.map((span) => ({
            ...span,
            scope: s.scope.name,
            attr: attributesOf(span.attributes),
          })),
        ),
      ),
    );

    // The HTTP server span: named and tagged with the route template, its status, the tenant.
    const server = spans.find(
      (s) => s.kind === 2 && s.attr['http.route'] === '/:tenant/api/1.0/invoices',
    );
    expect(server, JSON.stringify(spans.map((s) => s.name))).toBeDefined();
    expect(server?.name).toBe('POST /:tenant/api/1.0/invoices');
    expect(server?.attr).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'tenant.id': 'demo',
      'url.path': '/demo/api/1.0/invoices',
      'url.query': 'token=[redacted]',
    });
    // Fastify's own request span below it carries the tenant and the request id of the log.
    const request = spans.find(
      (s) => s.scope === '@fastify/otel' && s.parentSpanId === server?.spanId,
    );
    expect(request?.attr).toMatchObject({
      'http.route': '/:tenant/api/1.0/invoices',
      'tenant.id': 'demo',
      'url.path': '/demo/api/1.0/invoices?token=[redacted]',
    });
    expect(request?.attr['request.id']).toMatch(/^[0-9a-f-]{36}$/);
    // PostgreSQL's queries of that request, in its trace.
    const queries = spans.filter(
      (s) => s.scope === '@opentelemetry/instrumentation-pg' && s.traceId === server?.traceId,
    );
    expect(queries.map((q) => q.name)).toContain(
      `pg.query:SELECT ${url.slice(url.lastIndexOf('/') + 1)}`,
    );
    expect(queries.some((q) => String(q.attr['db.query.text']).includes('FROM invoices'))).toBe(
      true,
    );
    // The signed link's route, its path without the signature.
    const pdf = spans.find(
      (s) => s.kind === 2 && s.attr['http.route'] === '/:tenant/api/1.0/invoice/pdf/:token',
    );
    expect(pdf?.attr['url.path']).toBe('/demo/api/1.0/invoice/pdf/[redacted]');
    // The probes are not traced.
    expect(spans.some((s) => String(s.attr['url.path']).startsWith('/livez'))).toBe(false);

    // The method that tells the off case is sound: here, the SDK's modules were loaded.
    expect(loadedModules(modulesFile).filter(isTracingModule).length).toBeGreaterThan(0);
  });

  it('without OTEL_EXPORTER_OTLP_ENDPOINT, loads none of the tracing packages', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const modulesFile = join(dir, 'off.txt');
    const { child, stderr, exited } = startServer(
      { PORT: String(port), DATABASE_URL: url },
      modulesFile,
    );
    try {
      await waitUntilLive(base, child, stderr.text);
      expect((await fetch(`${base}/demo/api/1.0/visual-config`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, stderr.text).toBe(0);
    const loaded = loadedModules(modulesFile);
    // Fastify and pg were loaded, as CommonJS: the list holds what the process loaded.
    expect(loaded.some((f) => f.includes('/node_modules/fastify/'))).toBe(true);
    expect(loaded.some((f) => f.includes('/node_modules/pg/'))).toBe(true);
    expect(loaded.filter(isTracingModule)).toEqual([]);
    // Nor the Redis client without REDIS_URL (context.ts loads it only then): a tenth of the start.
    expect(loaded.filter((f) => f.includes('/node_modules/ioredis/'))).toEqual([]);
  });
});
