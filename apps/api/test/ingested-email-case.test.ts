/**
 * Review (ingested record reaches the database's rules unchecked): `ingestCustomers` decides that
 * a customer's sign-in address "moved" by comparing JavaScript's `toLowerCase()` of the address
 * sent with PostgreSQL's `lower()` of the address stored (`customersByCodeOrEmail` answers
 * `lower(email)`). The two disagree for some letters: `İ` (U+0130) is `i̇` (two code points) in
 * JavaScript and `i` in PostgreSQL; a final capital sigma `Σ` is `ς` in JavaScript and `σ` in
 * PostgreSQL.
 *
 * Scenario: the provider's system (many ERPs keep addresses as typed, or in capitals) creates
 * customer TR-1 with `İREM.YILMAZ@demo.test`; the invitation outbox e-mails her the link to choose
 * a password (valid 7 days). The provider's nightly sync then sends the very same record again: a
 * replay, which docs/ingestion.md says "changes nothing".
 *
 * Today: `newEmailOf.get(code) !== s.email` is true for the unchanged address, so the replay calls
 * `signInEmailMoved`: every reset link, invitation, sign-in link and e-mail change of that
 * customer is spent, and the Google/Apple/Microsoft accounts linked to it are unlinked — on every
 * sync, for ever (the customer cannot finish a reset that spans a sync).
 * Should: an address equal to the stored one (same text, so the same for the unique index) is not
 * a move; the links stay usable. (Compare in one place: both sides with PostgreSQL's `lower()`, or
 * compare the raw stored address with the raw one sent.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createInvitationSender } from '../src/modules/ingestion/invitations.ts';
import { createMailer } from '../src/modules/mail/mailer.ts';
import { buildTestApp, engines } from './engines.ts';

const address = 'İREM.YILMAZ@demo.test';

describe.each(engines())(
  'a replayed customer batch with a non-ASCII address on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let key = '';
    let outbox = '';
    let sender: ReturnType<typeof createInvitationSender>;

    beforeAll(async () => {
      db = await engine.open();
      app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
      key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
      outbox = await mkdtemp(join(tmpdir(), 'review-outbox-'));
      sender = createInvitationSender({
        db,
        mailer: createMailer({ outboxDir: outbox, log: () => {} }),
      });
    });
    afterAll(async () => {
      await app.close();
      await db.close();
      await rm(outbox, { recursive: true, force: true });
    });

    const sync = () =>
      app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/admin/customers',
        headers: { authorization: `Bearer ${key}` },
        payload: { customers: [{ code: 'TR-1', email: address, name: 'İrem' }] },
      });

    /** Links to choose a password (invitation or reset) of TR-1 that still work. */
    const openLinks = async () =>
      (
        await db.withTenant('demo', (sql) =>
          sql.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM password_resets r JOIN customers c
              ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
            WHERE c.code = 'TR-1' AND r.used_at IS NULL AND r.expires_at > now()`,
          ),
        )
      )[0]?.n;

    it("keeps the invitation link when the customer's unchanged record is sent again", async () => {
      const first = await sync();
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ created: 1, invited: 1 });
      expect(await sender.sendDue()).toBe(1);
      expect(await openLinks()).toBe(1);

      // The nightly sync sends the same record: nothing of it changed, and the answer says so.
      const replay = await sync();
      expect(replay.statusCode, replay.body).toBe(200);
      expect(replay.json()).toMatchObject({ created: 0, updated: 0, unchanged: 1 });

      // The invitation link she was mailed must still work.
      expect(await openLinks()).toBe(1);
    });
  },
);
