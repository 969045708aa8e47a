import { randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { DiagConsoleLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance } from 'fastify';
import { redactUrl } from './lib/log-redaction.ts';
import { redactingExporter } from './lib/span-redaction.ts';

/**
 * OpenTelemetry traces over OTLP/HTTP (JSON), started by main.ts before the server's modules load,
 * only when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`) is set. The standard OTEL_*
 * variables configure the rest (docs/operations.md "Traces"; decision 024).
 *
 * Spans: the HTTP request (route template, status), Fastify's request, hooks and handler
 * (@fastify/otel), each PostgreSQL query and connection (pg), outgoing HTTP calls (webhooks
 * through node:http; Redsys and OpenID providers through fetch). The resolved tenant is the `tenant.id` attribute of the request's
 * spans. Everything is redacted on its way out (lib/span-redaction.ts).
 */

/** Health probes and the scrape are not traced: many a minute, nothing to learn. */
const untracedPaths = new Set(['/livez', '/readyz', '/metrics']);
const isUntraced = (url: string | undefined) =>
  untracedPaths.has((url ?? '').split('?', 1)[0] ?? '');

/** The tenant each request resolved to, for the HTTP server span, which ends after Fastify's. */
const tenantOf = new WeakMap<IncomingMessage, string>();

/** How long closing the server waits for the last spans to leave. */
const flushMillis = 3_000;

const diagLevels: Record<string, DiagLogLevel> = {
  NONE: DiagLogLevel.NONE,
  ERROR: DiagLogLevel.ERROR,
  WARN: DiagLogLevel.WARN,
  INFO: DiagLogLevel.INFO,
  DEBUG: DiagLogLevel.DEBUG,
  VERBOSE: DiagLogLevel.VERBOSE,
  ALL: DiagLogLevel.ALL,
};

export async function startTracing(): Promise<void> {
  // The SDK's own problems (an unreachable collector) on stderr, at OTEL_LOG_LEVEL (default ERROR).
  const level = diagLevels[(process.env.OTEL_LOG_LEVEL ?? 'ERROR').toUpperCase()];
  diag.setLogger(new DiagConsoleLogger(), level ?? DiagLogLevel.ERROR);

  const provider = new NodeTracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) override these defaults.
    resource: defaultResource()
      .merge(
        resourceFromAttributes({
          'service.name': 'oficina-online-api',
          'service.instance.id': randomUUID(),
        }),
      )
      .merge(detectResources({ detectors: [hostDetector, envDetector] })),
    // Endpoint, headers, timeout from OTEL_EXPORTER_OTLP_*; batching from OTEL_BSP_*; sampling
    // from OTEL_TRACES_SAMPLER(_ARG): read by the SDK itself.
    spanProcessors: [new BatchSpanProcessor(redactingExporter(new OTLPTraceExporter()))],
  });
  provider.register();
  const flush = () =>
    Promise.race([
      provider.forceFlush(),
      new Promise<void>((resolve) => setTimeout(resolve, flushMillis).unref()),
    ]);
  // An exit on its own (a refused start) still sends what it traced.
  process.once('beforeExit', () => void provider.shutdown());

  // Before @fastify/otel's own subscription, so that these hooks are not traced as hooks.
  subscribe('fastify.initialization', (message) => {
    const app = (message as { fastify: FastifyInstance }).fastify;
    app.addHook('onSend', async (request) => {
      // Set by the tenant plugin once the tenant is known; absent before (an unknown tenant).
      const tenant = (request as { tenant?: { id: string } | null }).tenant?.id;
      if (!tenant) return;
      tenantOf.set(request.raw, tenant);
      request.opentelemetry().span?.setAttribute('tenant.id', tenant);
    });
    // server.ts closes the app before process.exit: the spans of the drained requests leave first.
    app.addHook('onClose', flush);
  });

  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => isUntraced(request.url),
        applyCustomAttributesOnSpan: (span, request) => {
          const tenant = tenantOf.get(request as IncomingMessage);
          if (tenant) span.setAttribute('tenant.id', tenant);
        },
      }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        // The request and its handler; a span per hook of every plugin (a dozen a request, named
        // after the plugins' source text) cost more than they tell.
        instrumentHooks: false,
        ignorePaths: ({ url }) => isUntraced(url),
        requestHook: (span, request) => {
          // @fastify/otel records the raw URL (query and all); the log's redaction instead.
          span.setAttribute('url.path', redactUrl(request.url));
          span.setAttribute('request.id', request.id);
        },
      }),
      // fetch(): the Redsys REST calls and the OpenID providers (openid-client).
      new UndiciInstrumentation(),
      // Queries outside a request (the background loops, migrations) would each be a trace of
      // their own: only queries inside a traced operation are.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
}
