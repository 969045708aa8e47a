import fp from 'fastify-plugin';
import type { Database } from '../../db/database.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyInstance {
    db: Database;
  }
}

/** Makes the database reachable from routes; the server owns its life cycle (opens and closes it). */
export default fp<{ db: Database }>(
  async (app, { db }) => {
    app.decorate('db', db);
  },
  { name: 'db' },
);
