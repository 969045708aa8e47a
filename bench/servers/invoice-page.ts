import { pageSize } from '@portal/contract';
import pg from 'pg';
import { todayIso } from '../../apps/api/src/lib/dates.ts';
import {
  invoicesPageSql,
  type InvoiceListRow,
} from '../../apps/api/src/modules/invoices/repository.ts';
import { toListItem } from '../../apps/api/src/modules/invoices/service.ts';

/**
 * The baselines' work: the portal's own page query of `/invoices` (the repository's
 * `invoicesPageSql`, with the tenant as a parameter instead of the transaction's setting) on a
 * plain pool, the same page of 20 plus one, each row served as the portal serves it
 * (`toListItem`). No auth, no row-level security, no transaction, no validation and no schema
 * serialisation: the floor the portal is measured against. The bench checks that both give the
 * same answer before it measures. Until session 40 the floor ran a copy of the statement that had
 * fallen behind the portal's (no returned-debit fee, no paid or cancelled facts, fewer rows read).
 */
export const invoicePageSql = invoicesPageSql('$7', '');

export type InvoicePageRequest = {
  tenant: string;
  customer: string;
  datefrom: string;
  dateto: string;
  page: number;
};

/** A row of the page's statement (int8 as pg gives it without the portal's parsers: text). */
export type InvoicePageRow = Omit<InvoiceListRow, 'total_cents' | 'owed_cents'> & {
  total_cents: string | number;
  owed_cents: string | number;
};

/** `yyyymmdd` as `yyyy-mm-dd`. */
export const isoOf = (api: string) => `${api.slice(0, 4)}-${api.slice(4, 6)}-${api.slice(6, 8)}`;

/** Runs the page's statement and answers its rows: on a pg pool, or on PGlite in process. */
export type RunPageQuery = (
  text: string,
  values: unknown[],
  prepared: boolean,
) => Promise<InvoicePageRow[]>;

/** The statement's values for a request, in its parameters' order ($7 the tenant). */
export const invoicePageValues = (q: InvoicePageRequest, today = todayIso()): unknown[] => [
  q.customer,
  isoOf(q.datefrom),
  isoOf(q.dateto),
  pageSize + 1,
  (q.page - 1) * pageSize,
  today,
  q.tenant,
];

/** The page's work on any database: the statement's values, and the answer shaped from its rows. */
export function invoicePageOn(run: RunPageQuery) {
  /**
   * `prepared`: as a named statement, which PostgreSQL parses and plans once per connection
   * (as the portal's reads are); otherwise as an unnamed one, parsed and planned every time.
   */
  return async (q: InvoicePageRequest, prepared = false) => {
    const rows = await run(invoicePageSql, invoicePageValues(q), prepared);
    return {
      invoices: rows.slice(0, pageSize).map((r) =>
        toListItem({
          ...r,
          total_cents: Number(r.total_cents),
          owed_cents: Number(r.owed_cents),
        }),
      ),
      has_more: rows.length > pageSize,
    };
  };
}

/**
 * The floors' pools. `prepared` runs the named statements with generic plans only
 * (`plan_cache_mode`): planned once per connection, as the portal's reads are. Left to choose,
 * PostgreSQL replanned the floor's statement on every request in some runs (its tenant is a
 * parameter, whose value a custom plan can use; the portal's is a setting, the same to either
 * plan), and the floor then served half its requests: `/invoices` read 1.37x of it (session 40).
 */
export function createFloorPools(connectionString: string, max: number) {
  return {
    plain: new pg.Pool({ connectionString, max }),
    prepared: new pg.Pool({
      connectionString,
      max,
      options: '-c plan_cache_mode=force_generic_plan',
    }),
  };
}

export type FloorPools = ReturnType<typeof createFloorPools>;

export function createInvoicePage(pools: FloorPools) {
  return {
    page: invoicePageOn(async (text, values, prepared) => {
      const { rows } = prepared
        ? await pools.prepared.query<InvoicePageRow>({ name: 'invoice_page', text, values })
        : await pools.plain.query<InvoicePageRow>(text, values);
      return rows;
    }),
    /** One round trip to the database. */
    ping: async () => (await pools.plain.query('SELECT 1 AS ok')).rows[0] as { ok: number },
    close: () => Promise.all([pools.plain.end(), pools.prepared.end()]),
  };
}

export const serverEnv = () => ({
  port: Number(process.env.PORT ?? 0),
  databaseUrl: process.env.DATABASE_URL ?? '',
  poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
