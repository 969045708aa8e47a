import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { signedIn } from './session.ts';

const cents = (cell: string | undefined) =>
  cell ? Math.round(Number(cell.replace(',', '.')) * 100) : 0;

/**
 * The customer's statement of [datefrom, dateto] as its CSV says it: the opening and closing
 * balances and each movement's reference, charge and credit, in cents.
 */
export async function statementCsv(
  app: FastifyInstance,
  me: Awaited<ReturnType<typeof signedIn>>,
  datefrom: string,
  dateto: string,
) {
  const link = await me.post('/documents/statement', { datefrom, dateto, format: 'csv' });
  expect(link.statusCode, link.body).toBe(200);
  const res = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
  expect(res.statusCode).toBe(200);
  const rows = res.body
    .slice(1)
    .trimEnd()
    .split('\r\n')
    .map((l) => l.split(';'));
  return {
    opening: cents(rows[1]?.[6]),
    closing: cents(rows.at(-1)?.[6]),
    /** Movements: [reference, charge, credit] (cents). */
    movements: rows.slice(2, -1).map((r) => [r[2], cents(r[4]), cents(r[5])] as const),
  };
}
