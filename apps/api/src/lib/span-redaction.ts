import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace-node';
import { redactUrl } from './log-redaction.ts';

/**
 * What leaves the process in a trace passes here last, whatever an instrumentation recorded:
 * nothing that grants access is exported, as nothing is logged (SECURITY.md).
 *
 * - URLs (server and client spans, old and stable HTTP conventions): the query's values and a
 *   signed link's signed part are left out (`redactUrl`, as in the log), credentials dropped.
 * - SQL text: every quoted literal becomes `'?'` (a read that could not be prepared carries its
 *   values inlined; database.ts).
 * - Error text: a status message and an exception's message can quote the input (JSON.parse
 *   quotes the body); only the exception's type and its stack frames are kept.
 * - Headers are never recorded (no instrumentation is asked to), bodies never are.
 */

/** Attributes whose value is a whole URL (scheme, host, path, query). */
const fullUrlKeys = new Set(['http.url', 'url.full']);
/** Attributes whose value is a path with its query: the request target. */
const targetKeys = new Set(['http.target', 'url.path']);
/** Attributes whose value is a query string alone. */
const queryKeys = new Set(['url.query']);
/** Attributes whose value is SQL text. */
const sqlKeys = new Set(['db.statement', 'db.query.text']);
/** Error text: dropped. */
const errorTextKeys = new Set(['exception.message', 'error.message']);

/** A single-quoted SQL literal (`'it''s'`, `E'a\'b'`) or a dollar-quoted one (`$$...$$`). */
const sqlLiteral = /\b[Ee]'(?:[^'\\]|\\.|'')*'|'(?:[^']|'')*'|\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$/g;

/** SQL text with every literal value replaced by `'?'`: the statement's shape, no data. */
export function redactSql(sql: string): string {
  return sql.replace(sqlLiteral, "'?'");
}

/** A URL with no credentials, no query values and no signed part (`redactUrl`). */
export function redactFullUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not an absolute URL: treated as a path and query.
    return redactUrl(url);
  }
  return `${parsed.protocol}//${parsed.host}${redactUrl(parsed.pathname + parsed.search)}`;
}

/** A query string (`a=1&b=2`, no `?`) with its parameter names only. */
function redactQuery(query: string): string {
  return redactUrl(`?${query.replace(/^\?/, '')}`).slice(1);
}

function redactValue(key: string, value: AttributeValue): AttributeValue | undefined {
  if (errorTextKeys.has(key)) return undefined;
  if (typeof value !== 'string') return value;
  if (fullUrlKeys.has(key)) return redactFullUrl(value);
  if (targetKeys.has(key)) return redactUrl(value);
  if (queryKeys.has(key)) return redactQuery(value);
  if (sqlKeys.has(key)) return redactSql(value);
  return value;
}

export function redactAttributes(attributes: Attributes): Attributes {
  const clean: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    const redacted = redactValue(key, value);
    if (redacted !== undefined) clean[key] = redacted;
  }
  return clean;
}

/** An exception event keeps its type and its stack frames: the first line of a stack is the message. */
function redactEvent(event: TimedEvent): TimedEvent {
  const attributes = redactAttributes(event.attributes ?? {});
  const stack = attributes['exception.stacktrace'];
  if (typeof stack === 'string')
    attributes['exception.stacktrace'] = stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n');
  return { ...event, attributes };
}

/** A copy of `span` as it may leave the process. */
export function redactSpan(span: ReadableSpan): ReadableSpan {
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    // The code (OK, ERROR) says what a trace view needs; the message is error text.
    status: { code: span.status.code },
    attributes: redactAttributes(span.attributes),
    links: span.links,
    events: span.events.map(redactEvent),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** `exporter`, sent only redacted copies of the spans. */
export function redactingExporter(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => exporter.export(spans.map(redactSpan), done),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
