import * as contract from '@portal/contract';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readsTheSameBothWays, serializerCompiler } from './zod-compilers.ts';

const serialize = (schema: z.ZodType, data: unknown) =>
  serializerCompiler({ schema, method: 'POST', url: '/t' })(data);

/** Every response schema the contract declares, by route name. */
function contractResponses(): [string, z.ZodType][] {
  const found: [string, z.ZodType][] = [];
  for (const [group, value] of Object.entries(contract)) {
    if (typeof value !== 'object' || value === null || value instanceof z.ZodType) continue;
    for (const [name, def] of Object.entries(value)) {
      const response = (def as { response?: unknown } | null)?.response;
      if (response instanceof z.ZodType) found.push([`${group}.${name}`, response]);
    }
  }
  return found;
}

const page = {
  invoices: Array.from({ length: 20 }, (_, i) => ({
    invoice_id: `F2026-${i}`,
    invoice_date: '2026-01-15',
    status: 0,
    state: 'overdue' as const,
    amount: 1234 + i,
    total: 5000,
    not_in_the_contract: 'dropped',
  })),
  has_more: true,
};

describe('the response serializer', () => {
  it('finds the contract’s routes, and every answer of theirs reads the same both ways', () => {
    const responses = contractResponses();
    expect(responses.length).toBeGreaterThan(60);
    expect(responses.filter(([, schema]) => !readsTheSameBothWays(schema)).map(([n]) => n)).toEqual(
      [],
    );
    expect(readsTheSameBothWays(contract.ZErrorBody)).toBe(true);
    expect(readsTheSameBothWays(contract.ZValidationErrorBody)).toBe(true);
  });

  it('writes what zod’s encode writes, unknown keys dropped', () => {
    const written = serialize(contract.ZInvoicesResponse, page);
    expect(written).toBe(JSON.stringify(z.encode(contract.ZInvoicesResponse, page)));
    expect(written).not.toContain('not_in_the_contract');
  });

  it('refuses an answer its schema does not allow', () => {
    const wrong = { ...page, invoices: [{ ...page.invoices[0], state: 'lost' }] };
    let thrown: unknown;
    try {
      serialize(contract.ZInvoicesResponse, wrong);
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
    expect(() => serialize(contract.ZInvoicesResponse, { ...page, has_more: 'yes' })).toThrow();
  });

  it('keeps encode where the direction matters: a codec, a transform, a default', () => {
    const at = z.codec(z.iso.datetime(), z.date(), {
      decode: (s) => new Date(s),
      encode: (d) => d.toISOString(),
    });
    const withCodec = z.object({ list: z.array(z.object({ at: at.optional() })) });
    expect(readsTheSameBothWays(withCodec)).toBe(false);
    expect(serialize(withCodec, { list: [{ at: new Date(0) }] })).toBe(
      '{"list":[{"at":"1970-01-01T00:00:00.000Z"}]}',
    );
    expect(readsTheSameBothWays(z.object({ n: z.number().default(5) }))).toBe(false);
    expect(readsTheSameBothWays(z.string().transform((s) => s.length))).toBe(false);
    expect(readsTheSameBothWays(z.union([z.string(), z.number().catch(0)]))).toBe(false);
    expect(readsTheSameBothWays(z.lazy(() => z.string()))).toBe(false);
  });

  it('parses what has no direction, refinements included', () => {
    const dated = z.object({
      on: contract.ZApiDate.nullable(),
      tags: z.record(z.string(), z.array(z.enum(['a', 'b']))),
      pair: z.tuple([z.number().int(), z.literal('x')]),
      either: z.union([z.object({ k: z.literal(1) }), z.object({ k: z.literal(2) })]).readonly(),
    });
    expect(readsTheSameBothWays(dated)).toBe(true);
    expect(() =>
      serialize(dated, { on: '2026-02-30', tags: {}, pair: [1, 'x'], either: { k: 1 } }),
    ).toThrow();
  });
});
