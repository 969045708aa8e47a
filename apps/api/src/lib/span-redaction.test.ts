import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { redactAttributes, redactFullUrl, redactSpan, redactSql } from './span-redaction.ts';

describe('redactSql', () => {
  it('replaces every literal value, whatever its quoting, and keeps parameters and names', () => {
    expect(
      redactSql(
        `SELECT set_config('app.tenant_id', 'demo', true); SELECT * FROM "t" WHERE email = 'a''b@c.es' AND x = E'p\\'w\\\\d' AND y = $1 AND z = $$raw$$ AND w = $q$it's$q$`,
      ),
    ).toBe(
      `SELECT set_config('?', '?', true); SELECT * FROM "t" WHERE email = '?' AND x = '?' AND y = $1 AND z = '?' AND w = '?'`,
    );
  });
});

describe('redactFullUrl', () => {
  it('drops credentials, query values and the signed part of a signed link', () => {
    expect(redactFullUrl('https://user:pw@hooks.example.com/in?key=abc&x')).toBe(
      'https://hooks.example.com/in?key=[redacted]&x',
    );
    expect(redactFullUrl('http://localhost:3000/demo/api/1.0/invoice/pdf/eyJ.sig')).toBe(
      'http://localhost:3000/demo/api/1.0/invoice/pdf/[redacted]',
    );
    expect(redactFullUrl('/reset-password?token=abc')).toBe('/reset-password?token=[redacted]');
  });
});

describe('redactAttributes', () => {
  it('redacts the URL, query and SQL attributes of both HTTP conventions and drops error text', () => {
    expect(
      redactAttributes({
        'http.url': 'http://h/p?token=t1',
        'url.full': 'http://h/p?code=c1',
        'http.target': '/p?token=t2',
        'url.path': '/demo/api/1.0/invoice/pdf/s1',
        'url.query': 'token=t3&email=e',
        'db.statement': "SELECT 'v1'",
        'db.query.text': "SELECT 'v2'",
        'exception.message': 'Unexpected token in "secret"',
        'http.route': '/:tenant/api/1.0/invoices',
        'http.response.status_code': 200,
      }),
    ).toEqual({
      'http.url': 'http://h/p?token=[redacted]',
      'url.full': 'http://h/p?code=[redacted]',
      'http.target': '/p?token=[redacted]',
      'url.path': '/demo/api/1.0/invoice/pdf/[redacted]',
      'url.query': 'token=[redacted]&email=[redacted]',
      'db.statement': "SELECT '?'",
      'db.query.text': "SELECT '?'",
      'http.route': '/:tenant/api/1.0/invoices',
      'http.response.status_code': 200,
    });
  });
});

describe('redactSpan', () => {
  it('keeps the status code without its message, and an exception as its type and frames', () => {
    const spanContext = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 };
    const span = {
      name: 'request',
      kind: SpanKind.INTERNAL,
      spanContext: () => spanContext,
      startTime: [1, 0],
      endTime: [2, 0],
      status: { code: SpanStatusCode.ERROR, message: 'bad "hunter2"' },
      attributes: { 'url.path': '/x?password=hunter2' },
      links: [],
      events: [
        {
          name: 'exception',
          time: [1, 5],
          attributes: {
            'exception.type': 'SyntaxError',
            'exception.message': 'Unexpected token "hunter2"',
            'exception.stacktrace':
              'SyntaxError: Unexpected token "hunter2"\n    at JSON.parse (<anonymous>)\n    at parse (x.js:1:1)',
          },
        },
      ],
      duration: [1, 0],
      ended: true,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    } as unknown as ReadableSpan; // resource and scope are passed through untouched
    const clean = redactSpan(span);
    expect(JSON.stringify({ ...clean, context: clean.spanContext() })).not.toContain('hunter2');
    expect(clean.spanContext()).toBe(spanContext);
    expect(clean.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(clean.events[0]?.attributes).toEqual({
      'exception.type': 'SyntaxError',
      'exception.stacktrace': '    at JSON.parse (<anonymous>)\n    at parse (x.js:1:1)',
    });
  });
});
