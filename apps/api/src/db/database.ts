import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** A connection inside a transaction: parameterised SQL only. */
export type Sql = {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
};

export type Database = {
  kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction as the application role with the tenant set transaction-locally,
   * so row-level security limits every statement to that tenant's rows. The only way modules
   * reach data.
   */
  withTenant<T>(tenantId: string, fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one transaction as the owner: row-level security does not apply. For migrations,
   * the demo seed and tenant administration only.
   */
  withOwner<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/**
 * Both engines return the same JavaScript values: int8 (sums, cents) as numbers (amounts stay far
 * below 2^53 cents) and `date` as its 'YYYY-MM-DD' text, never as a local-midnight Date.
 */
const int8Oid = 20;
const dateOid = 1082;
const parseInt8 = (value: string): number => Number(value);
const keepText = (value: string): string => value;
pg.types.setTypeParser(int8Oid, parseInt8);
pg.types.setTypeParser(dateOid, keepText);

/** The application role of migration 001. */
export const appRole = 'portal_app';

/** One statement that enters the application role and sets the tenant, both transaction-local. */
const enterTenantSql = `SELECT set_config('role', '${appRole}', true), set_config('app.tenant_id', $1, true)`;

export type PgliteDatabase = Database & { pglite: PGlite };

/** PGlite in `dataDir`; without one, in memory (tests), optionally loaded from a dumped data folder. */
export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob } = {},
): Promise<PgliteDatabase> {
  const parsers = { [int8Oid]: parseInt8, [dateOid]: keepText };
  const db = await PGlite.create({ ...options, parsers });
  const wrap = (tx: Pick<PGlite, 'query' | 'exec'>): Sql => ({
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await tx.query<Row>(text, params as unknown[]);
      return result.rows;
    },
    async exec(script: string) {
      await tx.exec(script);
    },
  });
  return {
    kind: 'pglite',
    pglite: db,
    withTenant(tenantId, fn) {
      return db.transaction(async (tx) => {
        await tx.query(enterTenantSql, [tenantId]);
        return fn(wrap(tx));
      });
    },
    withOwner(fn) {
      return db.transaction((tx) => fn(wrap(tx)));
    },
    async close() {
      await db.close();
    },
  };
}

export type PostgresOptions = { connectionString: string; max?: number };

export function openPostgres(options: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    // Fail fast instead of queuing without bound when the server is down or saturated.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 15_000,
  });
  // An idle client that loses its server is discarded by the pool; do not crash the process.
  pool.on('error', () => {});
  const wrap = (client: pg.PoolClient): Sql => ({
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await client.query(text, params as unknown[]);
      return result.rows as Row[];
    },
    async exec(script: string) {
      await client.query(script);
    },
  });
  async function inTransaction<T>(
    begin: (c: pg.PoolClient) => Promise<unknown>,
    fn: (sql: Sql) => Promise<T>,
  ) {
    const client = await pool.connect();
    let broken = false;
    try {
      await begin(client);
      const result = await fn(wrap(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }
  return {
    kind: 'postgres',
    withTenant(tenantId, fn) {
      // BEGIN and entering the tenant travel in one round trip (simple protocol, two statements);
      // the tenant id is a validated host label and is escaped as a literal besides.
      return inTransaction(
        (c) =>
          c.query(
            `BEGIN; SELECT set_config('role', '${appRole}', true), set_config('app.tenant_id', ${c.escapeLiteral(tenantId)}, true)`,
          ),
        fn,
      );
    },
    withOwner(fn) {
      return inTransaction((c) => c.query('BEGIN'), fn);
    },
    async close() {
      await pool.end();
    },
  };
}
