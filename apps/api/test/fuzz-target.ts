import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, type Engine } from './engines.ts';
import { signedIn } from './session.ts';

/** What the fuzz tests send their requests to: the app on its own database, and credentials. */
export type FuzzTarget = {
  db: Database;
  app: FastifyInstance;
  /** A signed-in customer of tenant demo (the customer calls). */
  token: string;
  /** A provider key of tenant demo (the `/admin/...` calls). */
  apiKey: string;
};

/**
 * The app on a private copy of `engine`'s database for the tests of the calling `describe`, set up
 * before them and closed after them; read its fields inside the tests.
 */
export function fuzzTarget(engine: Engine, keyName: string): FuzzTarget {
  const target = {} as FuzzTarget;
  beforeAll(async () => {
    target.db = await engine.open();
    target.app = await buildTestApp(target.db);
    target.token = (await signedIn(target.app, 'demo')).token;
    target.apiKey = (await target.db.withTenant('demo', (sql) => createApiKey(sql, keyName))).key;
  });
  afterAll(async () => {
    await target.app.close();
    await target.db.close();
  });
  return target;
}
