/**
 * The process entry (`node apps/api/dist/server.js`): with an OTLP endpoint configured, tracing
 * starts first, so that its instrumentations see `pg` load; then the server. Without one (or with
 * the standard OTEL_SDK_DISABLED=true), the tracing SDK is never even imported (decision 024).
 */
const env = process.env;
if (
  (env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) &&
  env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true'
) {
  const { startTracing } = await import('./tracing.ts');
  await startTracing();
}
await import('./server.ts');
