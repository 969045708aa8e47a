import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { epcQrPayload } from '../src/modules/payment-methods/service.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';

type Method = {
  id: string;
  kind: string;
  status: string;
  is_main: boolean;
  iban: string | null;
  entity: string | null;
  pending_request: string | null;
  pending_requests: string[];
  alias: string;
  holder: string;
};
type Note = { id: string; isRead: boolean; date: string; time: string; title: string };

describe.each(engines())('payment methods, notifications and contact on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    app = await buildTestApp(db, { SMTP_URL: smtp.url });
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
  });

  const call = (
    who: typeof me,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    payload?: object,
  ) =>
    app.inject({
      method,
      url: `/demo/api/1.0${path}`,
      headers: { authorization: `Bearer ${who.token}` },
      ...(payload ? { payload } : {}),
    });
  const methods = async (who = me) =>
    (await who.get('/payment-methods')).json<{ methods: Method[] }>().methods;

  describe('payment methods', () => {
    it('lists the saved card and the main bank account', async () => {
      const list = await methods();
      expect(list.map((m) => m.kind).sort()).toEqual(['bank_account', 'card']);
      expect(list[0]?.is_main).toBe(true);
      expect(list.find((m) => m.kind === 'card')).toMatchObject({
        card_masked: '454881******0004',
        card_expiry: '12/30',
      });
    });

    it('adds a bank account with the entity from the IBAN, unverified', async () => {
      const res = await me.post('/payment-methods/bank-account', {
        iban: 'es91 2100 0418 4502 0005 1332',
        holder: ' Laura García ',
        nif: '12345678z',
        mandate_accepted: true,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().method).toMatchObject({
        iban: 'ES91 2100 0418 4502 0005 1332',
        entity: 'CaixaBank',
        status: 'unverified',
        holder: 'Laura García',
        nif: '12345678Z',
      });
    });

    it.each([
      [
        { iban: 'ES91 2100 0418 4502 0005 1333', holder: 'x', nif: '12345678Z' },
        { iban: ['invalid_iban'] },
      ],
      [
        { iban: 'ES9121000418450200051332', holder: 'x', nif: '12345678A' },
        { nif: ['invalid_nif'] },
      ],
      [
        { iban: ' ', holder: ' ', nif: '' },
        { iban: ['required'], holder: ['required'], nif: ['required'] },
      ],
      [
        { iban: 'ES9121000418450200051332', holder: 'x'.repeat(121), nif: '12345678Z' },
        { holder: ['too_long'] },
      ],
    ])('refuses bad input %j with field errors and writes nothing', async (body, errors) => {
      const before = (await methods()).length;
      const res = await me.post('/payment-methods/bank-account', body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toMatchObject(errors);
      expect((await methods()).length).toBe(before);
    });

    it('edits an alias, files a verification and a main-method request, and refuses to delete the main one', async () => {
      const account = (await methods()).find((m) => m.status === 'unverified');
      const edited = await call(me, 'PATCH', `/payment-methods/${account?.id}`, {
        alias: 'Nómina',
      });
      expect(edited.json().method.alias).toBe('Nómina');
      const verify = await me.post(`/payment-methods/${account?.id}/verification-request`, {});
      expect(verify.json()).toMatchObject({ status: 'pending' });
      // Asking twice answers the same pending request.
      const again = await me.post(`/payment-methods/${account?.id}/verification-request`, {});
      expect(again.json().request_id).toBe(verify.json().request_id);
      expect((await methods()).find((m) => m.id === account?.id)?.pending_request).toBe(
        'verification',
      );
      // A method with a pending request cannot be deleted.
      expect((await call(me, 'DELETE', `/payment-methods/${account?.id}`)).statusCode).toBe(409);

      const card = (await methods()).find((m) => m.kind === 'card');
      const main = await me.post(`/payment-methods/${card?.id}/main-request`, {});
      expect(main.statusCode).toBe(200);
      expect((await methods()).find((m) => m.id === card?.id)).toMatchObject({
        pending_request: 'main_change',
        is_main: false,
      });
      // Both kinds pending on one account: both are told, not only the newest.
      const both = await me.post(`/payment-methods/${account?.id}/main-request`, {});
      expect(both.statusCode).toBe(200);
      expect((await methods()).find((m) => m.id === account?.id)).toMatchObject({
        pending_request: 'main_change',
        pending_requests: ['main_change', 'verification'],
      });
      const current = (await methods()).find((m) => m.is_main);
      const refused = await call(me, 'DELETE', `/payment-methods/${current?.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'method_in_use' });
    });

    it('deletes a method, and never touches another customer\u2019s', async () => {
      const added = await me.post('/payment-methods/bank-account', {
        iban: 'ES7921000813610123456789',
        holder: 'Laura',
        nif: '12345678Z',
        mandate_accepted: true,
      });
      const id = added.json().method.id as string;
      expect((await call(other, 'DELETE', `/payment-methods/${id}`)).statusCode).toBe(404);
      expect(
        (await call(other, 'PATCH', `/payment-methods/${id}`, { alias: 'x' })).statusCode,
      ).toBe(404);
      expect((await other.post(`/payment-methods/${id}/main-request`, {})).statusCode).toBe(404);
      expect((await call(me, 'DELETE', `/payment-methods/${id}`)).json()).toEqual({ count: 1 });
      expect((await methods()).some((m) => m.id === id)).toBe(false);
      expect((await call(me, 'DELETE', `/payment-methods/${id}`)).statusCode).toBe(404);
    });

    it("answers the tenant's transfer account, a reference and an EPC QR payload", async () => {
      const res = await me.get('/payment-methods/bank-transfer');
      const body = res.json<{
        iban: string;
        beneficiary: string;
        reference: string;
        epc_qr: string;
      }>();
      expect(body.beneficiary).toBe('Demo Fitness S.L.');
      expect(body.reference).toBe('Cliente DF-000123');
      expect(body.epc_qr.split('\n').slice(0, 4)).toEqual(['BCD', '002', '1', 'SCT']);
      expect(body.epc_qr).toContain(body.iban.replace(/ /g, ''));
      expect(epcQrPayload({ beneficiary: 'A', iban: 'ES00', reference: 'R' })).toBe(
        'BCD\n002\n1\nSCT\n\nA\nES00\n\n\n\nR\n',
      );
    });
  });

  describe('notifications', () => {
    const list = async (filter = 'all', who = me) =>
      (await who.post('/notifications', { filter })).json<{
        notifications: Note[];
        unread: number;
        has_more: boolean;
      }>();

    it('lists newest first with Madrid date and time, filters read/unread, and counts unread', async () => {
      const all = await list();
      expect(all.notifications.length).toBeGreaterThanOrEqual(5);
      expect(all.notifications[0]?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(all.notifications[0]?.time).toMatch(/^\d{2}:\d{2}$/);
      const unread = await list('unread');
      expect(unread.notifications.every((n) => !n.isRead)).toBe(true);
      expect(unread.notifications.length).toBe(all.unread);
      expect((await me.get('/notifications/unread-count')).json()).toEqual({ unread: all.unread });
      expect((await list('read')).notifications.every((n) => n.isRead)).toBe(true);
    });

    it("marks read and deletes one's own, and ignores another customer's ids", async () => {
      const mine = (await list('unread')).notifications;
      const theirs = (await list('all', other)).notifications;
      const read = await me.post('/notifications/read', { ids: [mine[0]?.id, theirs[0]?.id] });
      expect(read.json()).toEqual({ count: 1 });
      const deleted = await me.post('/notifications/delete', { ids: [mine[0]?.id, theirs[0]?.id] });
      expect(deleted.json()).toEqual({ count: 1 });
      expect((await list('all', other)).notifications.some((n) => n.id === theirs[0]?.id)).toBe(
        true,
      );
      expect((await me.post('/notifications/read', { ids: [] })).statusCode).toBe(422);
    });
  });

  describe('contact', () => {
    const message = {
      name: 'Laura',
      company: 'Particular',
      subject: 'Horario de agosto',
      message: '¿Abrís en agosto?',
      acceptPrivacy: true,
    };

    it('stores the message and e-mails the organisation and a copy to the customer', async () => {
      const res = await me.post('/contact', message);
      expect(res.statusCode).toBe(201);
      const toTenant = await smtp.waitFor('secretaria@demofitness.test');
      expect(toTenant.raw).toContain('Horario de agosto');
      expect(toTenant.raw).toContain('¿Abrís en agosto?');
      const copy = await smtp.waitFor('cliente@demo.test');
      expect(copy.raw).toContain('Hemos recibido tu mensaje');
      const stored = await db.withTenant('demo', (sql) =>
        sql.query('SELECT subject FROM contact_messages'),
      );
      expect(stored).toEqual([{ subject: 'Horario de agosto' }]);
    });

    it.each([
      [{ ...message, name: '   ' }, { name: ['required'] }],
      [{ ...message, acceptPrivacy: false }, { acceptPrivacy: ['privacy_required'] }],
      [{ ...message, message: 'x'.repeat(5001) }, { message: ['too_long'] }],
      [
        { name: 'a' },
        {
          company: ['required'],
          subject: ['required'],
          message: ['required'],
          acceptPrivacy: ['privacy_required'],
        },
      ],
    ])('refuses %j', async (body, errors) => {
      const res = await me.post('/contact', body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toMatchObject(errors);
    });

    it('limits messages per customer', async () => {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await other.post('/contact', message)).statusCode);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    });
  });
});
