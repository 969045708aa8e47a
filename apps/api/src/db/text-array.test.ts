import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { textArray } from './text-array.ts';

describe('textArray', () => {
  const pg = new PGlite();
  afterAll(() => pg.close());

  it('writes a literal PostgreSQL reads back as the same values, whatever they hold', async () => {
    const values = ['F-1', '', 'a,b', '{x}', 'say "hi"', 'back\\slash', 'NULL', ' spaced ', 'ñ€'];
    const { rows } = await pg.query<{ v: string[] }>('SELECT $1::text[] AS v', [textArray(values)]);
    expect(rows[0]?.v).toEqual(values);
  });

  it('writes an empty set as an empty array, not as no parameter', async () => {
    expect(textArray([])).toBe('{}');
    const { rows } = await pg.query<{ n: number }>('SELECT cardinality($1::text[]) AS n', [
      textArray(new Set<string>()),
    ]);
    expect(rows[0]?.n).toBe(0);
  });
});
