import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { postgresUrl, type PrivatePostgresInfo } from './private-postgres.ts';

export type TestDatabase = {
  name: string;
  url: string;
  /** A query as the owner (no row-level security), on a fresh connection each time. */
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  drop(): Promise<void>;
};

async function once<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A private copy of the seeded template on the private cluster. */
export async function cloneTemplate(
  postgres: PrivatePostgresInfo,
  template: string,
  label: string,
): Promise<TestDatabase> {
  const name = `portal_${label}_${randomBytes(3).toString('hex')}`;
  const admin = postgresUrl(postgres, 'postgres');
  await once(admin, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const url = postgresUrl(postgres, name);
  return {
    name,
    url,
    query: <Row>(text: string, params: unknown[] = []) =>
      once(url, async (c) => (await c.query(text, params)).rows as Row[]),
    drop: () =>
      once(admin, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
