import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** A connection inside a transaction: parameterised SQL only. */
export type Sql = {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
};

/** What repositories need: parameterised statements (a `readTenant` callback may run one). */
export type SqlQuery = Pick<Sql, 'query'>;

export type Database = {
  kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction as the application role with the tenant set transaction-locally,
   * so row-level security limits every statement to that tenant's rows. The only way modules
   * reach data.
   */
  withTenant<T>(tenantId: string, fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * A read of ONE statement under the tenant's row-level security, like `withTenant`, in a single
   * round trip on PostgreSQL: the tenant and the statement travel as one message (`TenantRead`),
   * which the server runs as one implicit transaction (the settings end with it). `fn` may call
   * `query` once; a second call is a programming error and throws.
   */
  readTenant<T>(tenantId: string, fn: (sql: SqlQuery) => Promise<T>): Promise<T>;
  /**
   * Several reads under the tenant's row-level security that must agree with each other (a
   * statement's opening, movements and closing): one read-only transaction of one snapshot
   * (REPEATABLE READ), so a batch committing between two of them is seen by all or by none.
   */
  snapshotOfTenant<T>(tenantId: string, fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one transaction as the owner: row-level security does not apply. For migrations,
   * the demo seed and tenant administration only.
   */
  withOwner<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on one connection of its own as the owner, outside any transaction: each statement
   * commits by itself, and session settings and session-level locks hold until `fn` ends (the
   * connection is then closed, so none of them outlives it). For the migrations that cannot run
   * in a transaction (`CREATE INDEX CONCURRENTLY`, db/migrate.ts) only.
   */
  withOwnerSession<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * The job queue's own connection (pg-boss, modules/jobs): statements as the owner outside any
   * tenant, each on its own (pg-boss writes its scripts with their BEGIN and COMMIT); a script
   * without parameters may hold several statements. Only the jobs module uses it, for the queue's
   * schema (`pgboss`), never for the portal's tables.
   */
  readonly jobQueue: JobQueueConnection;
  /**
   * How to open more connections to the same PostgreSQL (the heavy-work processes open their own for
   * the invoice batches, workers/ingest-invoices.ts); absent for the embedded database.
   */
  readonly postgres?: PostgresOptions;
  /**
   * Listens to `channel` (what the database's `pg_notify` announces there), on a connection of its
   * own that comes back when it is lost. Answers how to stop, or `undefined` where listening cannot
   * be trusted: behind a pooler in transaction mode (`preparedStatements: false`), where a LISTEN
   * holds only as long as its transaction.
   */
  listen(channel: string, handlers: ChannelHandlers): Promise<(() => Promise<void>) | undefined>;
  /** Connections of the pool (PostgreSQL; the embedded database has one, always open). */
  poolStats(): { size: number; total: number; idle: number; waiting: number };
  close(): Promise<void>;
};

/** What a listener of a channel is told (`Database.listen`). */
export type ChannelHandlers = {
  /** A message, once the transaction that sent it has committed. */
  message(payload: string): void;
  /** Listening from now on: every message committed after this reaches `message`. */
  up(): void;
  /** No longer listening: messages may be missed until the next `up`. */
  down(): void;
};

/** What pg-boss asks of a database it does not open itself (its `db` option). */
export type JobQueueConnection = {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
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

/** `sql` allowed one statement: the contract of `readTenant`, on both engines. */
function oneStatement(sql: SqlQuery): SqlQuery {
  let used = false;
  return {
    query(text, params) {
      if (used) throw new Error('readTenant runs one statement: use withTenant for more');
      used = true;
      return sql.query(text, params);
    },
  };
}

/** One statement that enters the application role and sets the tenant, both transaction-local. */
const enterTenantSql = `SELECT set_config('role', '${appRole}', true), set_config('app.tenant_id', $1, true)`;

export type PgliteDatabase = Database & { pglite: PGlite };

/**
 * PGlite in `dataDir`; without one, in memory (tests), optionally loaded from a dumped data folder.
 * `sharedBuffers` (a PostgreSQL size, e.g. '16MB') replaces PGlite's 128 MB buffer pool: the pool
 * is zeroed at every start, which was half of the 1.2-2 s a test's copy of the database took to
 * open (0.6-0.8 s with 16 MB; the test databases are about 10 MB).
 */
export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob; sharedBuffers?: string } = {},
): Promise<PgliteDatabase> {
  const { sharedBuffers, ...where } = options;
  const parsers = { [int8Oid]: parseInt8, [dateOid]: keepText };
  // Loaded here, not at start: a server on PostgreSQL never needs the embedded engine.
  const { PGlite } = await import('@electric-sql/pglite');
  const startParams = sharedBuffers
    ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] }
    : {};
  const db = await PGlite.create({ ...where, ...startParams, parsers });
  const wrap = (tx: Pick<PGlite, 'query' | 'exec'>): Sql => ({
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await tx.query<Row>(text, params as unknown[]);
      return result.rows;
    },
    async exec(script: string) {
      await tx.exec(script);
    },
  });
  const withTenant: Database['withTenant'] = (tenantId, fn) =>
    db.transaction(async (tx) => {
      await tx.query(enterTenantSql, [tenantId]);
      return fn(wrap(tx));
    });
  return {
    kind: 'pglite',
    pglite: db,
    // In process: no round trips to save, so a read is an ordinary tenant transaction.
    withTenant,
    readTenant: (tenantId, fn) => withTenant(tenantId, (sql) => fn(oneStatement(sql))),
    // One connection, one transaction at a time: nothing commits between two reads of one.
    snapshotOfTenant: withTenant,
    withOwner(fn) {
      return db.transaction((tx) => fn(wrap(tx)));
    },
    // The one connection, each statement on its own (PGlite serialises them).
    withOwnerSession: (fn) => fn(wrap(db)),
    jobQueue: {
      async executeSql(text, values) {
        if (values && values.length > 0) return db.query(text, values);
        // A script of several statements (its schema, its migrations): the last one's rows.
        const results = await db.exec(text);
        return results.at(-1) ?? { rows: [] };
      },
    },
    async listen(channel, handlers) {
      // In process: a message reaches every listener when its transaction commits; nothing to lose.
      const unlisten = await db.listen(channel, handlers.message);
      handlers.up();
      return async () => {
        handlers.down();
        await unlisten();
      };
    },
    poolStats: () => ({ size: 1, total: 1, idle: 1, waiting: 0 }),
    async close() {
      await db.close();
    },
  };
}

/** `enterTenantSql` with the tenant as an escaped literal, for simple-protocol messages. */
const enterTenantLiteralSql = (tenantId: string): string =>
  `SELECT set_config('role', '${appRole}', true), set_config('app.tenant_id', ${sqlLiteral(tenantId)}, true)`;

/** A double-quoted element of an array literal: `{"a","b"}`. */
const arrayElement = (value: unknown): string =>
  value === null || value === undefined
    ? 'NULL'
    : `"${String(scalarText(value)).replace(/[\\"]/g, '\\$&')}"`;

function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `{${value.map(arrayElement).join(',')}}`;
  // Objects (JSON), buffers, NaN: not inlined by this path, which only the reads use.
  throw new TypeError(`Cannot inline a parameter of type ${typeof value}`);
}

/**
 * A parameter as an SQL literal of unknown type, which PostgreSQL resolves from its context exactly
 * as it resolves an untyped `$n` parameter (so `$1::date`, `LIMIT $2` and `= ANY($3::uuid[])` read the
 * same). Quotes and backslashes are escaped by pg's own `escapeLiteral`.
 */
const sqlLiteral = (value: unknown): string =>
  value === null || value === undefined ? 'NULL' : pg.escapeLiteral(scalarText(value));

/** `text` with each `$n` replaced by the literal of `params[n - 1]`. */
function inlineParameters(text: string, params: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index >= params.length) throw new RangeError(`No value for $${n}`);
    return sqlLiteral(params[index]);
  });
}

/**
 * The reads' statements, prepared once per connection and then only executed: PostgreSQL parses,
 * rewrites (row-level security) and plans them once instead of on every read, which was most of
 * the database's work per request (bench/README.md). Each distinct text gets a name, at most
 * `maxPreparedReads` of them (the code's reads are fixed texts); `null` marks a text PostgreSQL
 * cannot prepare (a parameter whose type nothing determines), read with inlined values instead.
 */
const readStatementNames = new Map<string, string | null>();
const maxPreparedReads = 500;
/** Which of those names each pooled connection has prepared. */
const preparedOn = new WeakMap<pg.ClientBase, Set<string>>();
const duplicatePreparedStatement = '42P05';
const indeterminateDatatype = '42P18';
const unknownPreparedStatement = '26000';

/**
 * A statement's name is a digest of its text, not an order of first use: two processes (or a
 * pooler handing one process's transactions to another's server connection) that meet one name
 * always mean the same text, never another statement bound to this one's values.
 */
function readStatementName(text: string): string | null {
  let name = readStatementNames.get(text);
  if (name === undefined) {
    name =
      readStatementNames.size < maxPreparedReads
        ? `read_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`
        : null;
    readStatementNames.set(text, name);
  }
  return name;
}

/** Name of the statement that enters the tenant, prepared beside the reads on each connection. */
const enterStatement = 'enter_tenant';

/** A value as the text PostgreSQL reads for an untyped parameter: what `sqlLiteral` quotes. */
const parameterText = (value: unknown): string | null =>
  value === null || value === undefined ? null : scalarText(value);

type RowDescription = { fields: { name: string; dataTypeID: number }[] };
type DataRow = { fields: (string | null)[] };

/**
 * One read as the extended protocol carries it, in one round trip: Bind and Execute of the
 * prepared statement that enters the tenant, then Bind, Describe and Execute of the read's own,
 * and one Sync. Everything before the Sync is one implicit transaction, so the transaction-local
 * settings reach the read and end with it. A statement not yet prepared on this connection is
 * parsed in the same message, after the role is entered. Values travel as parameters, not as text
 * of the statement: nothing to quote, and PostgreSQL parses no SQL per read.
 *
 * Why not pg's own Query: it takes one statement per Sync, and entering the tenant as a statement
 * of its own costs a round trip. Why not `EXECUTE name(literals)` in one simple-protocol message,
 * as before: PostgreSQL parsed and planned that message on every read, and under load each page's
 * rows from it survived two young-generation collections (about 1 MB copied per collection, then
 * left for the old generation); read this way, almost nothing survives (bench/README.md, p99).
 */
class TenantRead<Row> implements pg.Submittable {
  private rows: Row[] = [];
  private names: string[] = [];
  private parsers: ((text: string) => unknown)[] = [];
  /** Statements completed so far: the tenant's is the first, the read's the second. */
  private completed = 0;
  /**
   * The read's statement and what it calls when done, under the names of pg's own query config:
   * pg's tracing instrumentation (tracing.ts) records `text` on the query's span, and wraps
   * `callback` to end it.
   */
  readonly text: string;
  callback: (error: Error | null, rows?: Row[]) => void;
  private settled = false;

  constructor(
    private readonly read: { tenantId: string; name: string; text: string; values: unknown[] },
    private readonly prepared: Set<string>,
    settle: (error: Error | null, rows?: Row[]) => void,
  ) {
    this.text = read.text;
    this.callback = settle;
  }

  submit(connection: pg.Connection): void {
    const { tenantId, name, text, values } = this.read;
    // Unnamed statements (a pooler in transaction mode): parsed in every message, as pg does.
    const enter = name === '' ? '' : enterStatement;
    // One write for the whole message, as pg's own Query does for its extended-protocol messages.
    connection.stream.cork();
    try {
      if (enter === '' || !this.prepared.has(enter))
        connection.parse({ name: enter, text: enterTenantSql, types: [] }, false);
      connection.bind({ statement: enter, values: [tenantId] }, false);
      connection.execute({ portal: '' }, false);
      if (name === '' || !this.prepared.has(name))
        connection.parse({ name, text, types: [] }, false);
      connection.bind({ statement: name, values: values.map(parameterText) }, false);
      connection.describe({ type: 'P', name: '' }, false);
      connection.execute({ portal: '' }, false);
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  handleRowDescription(message: RowDescription): void {
    this.names = message.fields.map((f) => f.name);
    this.parsers = message.fields.map((f) => pg.types.getTypeParser(f.dataTypeID, 'text'));
  }

  handleDataRow(message: DataRow): void {
    // The tenant's statement answers a row too; it was not described, and is not the read.
    if (this.completed !== 1) return;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < this.names.length; i++) {
      const value = message.fields[i];
      row[this.names[i] as string] =
        value === null || value === undefined
          ? null
          : (this.parsers[i] as (t: string) => unknown)(value);
    }
    this.rows.push(row as Row);
  }

  handleCommandComplete(): void {
    this.completed += 1;
  }

  handleReadyForQuery(): void {
    if (this.read.name !== '') this.prepared.add(enterStatement).add(this.read.name);
    this.done(null, this.rows);
  }

  /** pg calls this with the server's error, or the connection's; the Sync's answer follows. */
  handleError(error: Error): void {
    // Past the tenant's statement, its Parse (if sent) was done: the next read need not send it.
    if (this.completed > 0 && this.read.name !== '') this.prepared.add(enterStatement);
    this.done(error);
  }

  /** The first outcome counts: after an error, the Sync's answer still arrives. */
  private done(error: Error | null, rows?: Row[]): void {
    if (this.settled) return;
    this.settled = true;
    this.callback(error, rows);
  }

  // Messages a read never causes; pg calls them on whatever query is active.
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: pg.Connection & { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('a read copies nothing');
  }
  handleCopyData(): void {}
}

/**
 * One read as `readTenant` runs it on PostgreSQL (`TenantRead`). Prepared statements outlive a
 * failed message (they are not transactional), so a duplicate is taken as prepared and the read
 * sent again; one gone from the session is prepared again. A statement PostgreSQL cannot prepare
 * (a parameter nothing gives a type) is read in one simple-protocol message with its values
 * inlined, as are texts beyond `maxPreparedReads`.
 */
async function readAsTenant<Row>(
  client: pg.PoolClient,
  tenantId: string,
  text: string,
  params: readonly unknown[],
  named: boolean,
  retries = 2,
): Promise<Row[]> {
  const name = named ? readStatementName(text) : '';
  if (name === null || retries < 0)
    return lastRows<Row>(
      await client.query(`${enterTenantLiteralSql(tenantId)}; ${inlineParameters(text, params)}`),
    );
  let prepared = preparedOn.get(client);
  if (!prepared) preparedOn.set(client, (prepared = new Set()));
  const known = prepared;
  try {
    return await new Promise<Row[]>((resolve, reject) => {
      client.query(
        new TenantRead<Row>({ tenantId, name, text, values: [...params] }, known, (error, rows) =>
          error ? reject(error) : resolve(rows ?? []),
        ),
      );
    });
  } catch (error) {
    if (!(error instanceof pg.DatabaseError)) throw error;
    if (error.code === duplicatePreparedStatement) {
      // Parsed by an earlier read that failed after its Parse: the name in the message says which.
      known.add(enterStatement);
      if (error.message.includes(`"${name}"`)) known.add(name);
    } else if (error.code === indeterminateDatatype) readStatementNames.set(text, null);
    // Gone from the session (`DISCARD ALL`, `DEALLOCATE`, a pooler in front that switched the
    // server connection): prepared again. Bounded, then read inlined, should that keep happening.
    else if (error.code === unknownPreparedStatement) known.clear();
    else throw error;
    return readAsTenant<Row>(client, tenantId, text, params, named, retries - 1);
  }
}

/** The rows of the last statement of a simple-protocol message. */
function lastRows<Row>(result: pg.QueryResult | pg.QueryResult[]): Row[] {
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  return (last?.rows ?? []) as Row[];
}

export type PostgresOptions = {
  connectionString: string;
  max?: number;
  /**
   * Named prepared statements for the reads (decision 013), kept per server connection. Off
   * behind a pooler in transaction mode (PgBouncer before 1.21, or without
   * `max_prepared_statements`), where consecutive transactions of one client may reach different
   * server connections: every read is then parsed in its own message, unnamed.
   */
  preparedStatements?: boolean;
};

export function openPostgres(options: PostgresOptions): Database {
  const named = options.preparedStatements ?? true;
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
  // A client in use whose server goes away (a restart, a failover) rejects its pending query AND
  // emits 'error'; the pool only listens while the client is idle, and an unheard 'error' event
  // kills the process. The query's rejection reaches the caller (a 503); the client is discarded
  // on release because it is no longer queryable (resilience/faults.resilience.ts).
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
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
    postgres: options,
    withTenant(tenantId, fn) {
      // BEGIN and entering the tenant travel in one round trip (simple protocol, two statements);
      // the tenant id is a validated host label and is escaped as a literal besides.
      return inTransaction((c) => c.query(`BEGIN; ${enterTenantLiteralSql(tenantId)}`), fn);
    },
    snapshotOfTenant(tenantId, fn) {
      return inTransaction(
        (c) =>
          c.query(
            `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${enterTenantLiteralSql(tenantId)}`,
          ),
        fn,
      );
    },
    async readTenant(tenantId, fn) {
      const client = await pool.connect();
      let broken = false;
      try {
        return await fn(
          oneStatement({
            query: <Row>(text: string, params: readonly unknown[] = []) =>
              readAsTenant<Row>(client, tenantId, text, params, named),
          }),
        );
      } catch (error) {
        // A connection that failed mid-message (not a plain SQL error) is not reused.
        broken = !(error instanceof pg.DatabaseError);
        throw error;
      } finally {
        client.release(broken);
      }
    },
    withOwner(fn) {
      return inTransaction((c) => c.query('BEGIN'), fn);
    },
    async withOwnerSession(fn) {
      const client = await pool.connect();
      try {
        return await fn(wrap(client));
      } finally {
        // Closed, not returned: its settings and locks end with it, whatever `fn` left behind.
        client.release(true);
      }
    },
    jobQueue: {
      executeSql: (text, values) => pool.query(text, values),
    },
    listen: (channel, handlers) =>
      Promise.resolve(
        named ? listenPostgres(options.connectionString, channel, handlers) : undefined,
      ),
    poolStats: () => ({
      size: pool.options.max,
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    async close() {
      await pool.end();
    },
  };
}

/** How often a listening connection proves it still answers, and how long it may take to. */
const listenerHeartbeatMillis = 5_000;
/** The longest wait before connecting again after the listening connection was lost. */
const listenerMaxBackoffMillis = 10_000;

/**
 * LISTEN on a connection outside the pool, for as long as the process runs. When the connection
 * fails, ends or stops answering its heartbeat (a server restart, a failover, a half-open socket),
 * the listener is told `down` at once and the connection is opened again with back-off; `up`
 * comes only after the new LISTEN has been acknowledged.
 */
async function listenPostgres(
  connectionString: string,
  channel: string,
  handlers: ChannelHandlers,
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoff = 250;
  const open = async (): Promise<void> => {
    if (stopped) return;
    const client = new pg.Client({
      connectionString,
      // Named for the operator (pg_stat_activity) and the tests that cut it.
      application_name: `portal-listen-${channel}`,
      connectionTimeoutMillis: listenerHeartbeatMillis,
      query_timeout: listenerHeartbeatMillis,
      keepAlive: true,
    });
    current = client;
    let lost = false;
    const timer: { heartbeat?: NodeJS.Timeout } = {};
    const lose = () => {
      if (lost) return;
      lost = true;
      clearInterval(timer.heartbeat);
      handlers.down();
      client.end().catch(() => {});
      if (stopped) return;
      retry = setTimeout(() => void open(), backoff);
      retry.unref();
      backoff = Math.min(backoff * 2, listenerMaxBackoffMillis);
    };
    client.on('error', lose);
    client.on('end', lose);
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined)
        handlers.message(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      lose();
      return;
    }
    if (lost || stopped) return;
    backoff = 250;
    timer.heartbeat = setInterval(() => {
      client.query('SELECT 1').catch(lose);
    }, listenerHeartbeatMillis);
    timer.heartbeat.unref();
    handlers.up();
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await current?.end().catch(() => {});
  };
}
