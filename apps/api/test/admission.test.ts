import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { AppError } from '../src/lib/app-error.ts';
import { createAdmission, passwordAdmission } from '../src/modules/auth/passwords.ts';
import { buildTestApp, engines } from './engines.ts';

/** A task that runs until released, recording when it started. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, task: () => opened };
}

describe('admission control of password work', () => {
  it('runs at most maxInFlight at once and starts the waiting ones in arrival order', async () => {
    const admission = createAdmission({ maxInFlight: 2, maxQueued: 3 });
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => gate());
    const runs = gates.map((g, i) =>
      admission.run(async () => {
        started.push(i);
        await g.task();
        return i;
      }),
    );
    await sleep(5);
    expect(started).toEqual([0, 1]);
    expect([admission.inFlight, admission.queued]).toEqual([2, 3]);
    gates[1]?.open();
    await sleep(5);
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.open();
    await sleep(5);
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect([admission.inFlight, admission.queued]).toEqual([0, 0]);
  });

  it('refuses at once, with a 503 and Retry-After, when the line is full', async () => {
    const admission = createAdmission({ maxInFlight: 1, maxQueued: 1 });
    const g = gate();
    const running = admission.run(g.task);
    const waiting = admission.run(async () => 'waited');
    const refused = admission.run(async () => 'never');
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({
      statusCode: 503,
      code: 'service_unavailable',
      headers: { 'retry-after': '1' },
    });
    g.open();
    await running;
    expect(await waiting).toBe('waited');
    // The line is free again.
    expect(await admission.run(async () => 'again')).toBe('again');
  });

  it("keeps one key (a tenant) to its share: refused at once while another key's task still waits", async () => {
    const admission = createAdmission({ maxInFlight: 1, maxQueued: 3, maxPerKey: 2 });
    const g = gate();
    const running = admission.run(g.task, 'busy');
    const waiting = admission.run(async () => 'busy waited', 'busy');
    // The line has room for two more, but the busy tenant holds its two places.
    await expect(admission.run(async () => 'never', 'busy')).rejects.toMatchObject({
      statusCode: 503,
    });
    const other = admission.run(async () => 'other waited', 'quiet');
    expect([admission.inFlight, admission.queued]).toEqual([1, 2]);
    g.open();
    await running;
    expect(await waiting).toBe('busy waited');
    expect(await other).toBe('other waited');
    // Its tasks done, the busy tenant has its share again; a failed task gives its place back too.
    await expect(admission.run(() => Promise.reject(new Error('boom')), 'busy')).rejects.toThrow();
    expect(await admission.run(async () => 'again', 'busy')).toBe('again');
  });

  it("takes turns between keys: a tenant's one task waits behind one of the busy tenant's, not all", async () => {
    const admission = createAdmission({ maxInFlight: 1, maxQueued: 8 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const run = (name: string, key?: string) => {
      const g = gate();
      gates.set(name, g);
      return admission.run(async () => {
        started.push(name);
        await g.task();
      }, key);
    };
    const finish = async (name: string) => {
      gates.get(name)?.open();
      await sleep(2);
    };
    const runs = [
      run('busy 1', 'busy'),
      run('busy 2', 'busy'),
      run('busy 3', 'busy'),
      run('busy 4', 'busy'),
      run('quiet 1', 'quiet'),
      run('anyone 1'),
      run('quiet 2', 'quiet'),
    ];
    await sleep(2);
    expect([admission.inFlight, admission.queued]).toEqual([1, 6]);
    // busy, then the keys in the order they first waited: busy, quiet, keyless; each in its order.
    for (const name of ['busy 1', 'busy 2', 'quiet 1', 'anyone 1', 'busy 3', 'quiet 2']) {
      await finish(name);
    }
    await finish('busy 4');
    await Promise.all(runs);
    expect(started).toEqual([
      'busy 1',
      'busy 2',
      'quiet 1',
      'anyone 1',
      'busy 3',
      'quiet 2',
      'busy 4',
    ]);
    expect([admission.inFlight, admission.queued]).toEqual([0, 0]);
  });

  it('frees the slot when a task fails', async () => {
    const admission = createAdmission({ maxInFlight: 1, maxQueued: 0 });
    await expect(admission.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(admission.inFlight).toBe(0);
    expect(await admission.run(async () => 1)).toBe(1);
  });
});

describe.each(engines())('sign-in under a full password gate on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });
  const login = (email: string, password: string, ip: string) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      payload: { email, password },
      remoteAddress: ip,
    });

  it("leaves another tenant room while one tenant's sign-ins fill their half of the gate", async () => {
    // Tenant demo's share of the gate, held by work that waits.
    const g = gate();
    const held: Promise<unknown>[] = [];
    for (;;) {
      const before = passwordAdmission.inFlight + passwordAdmission.queued;
      held.push(passwordAdmission.run(g.task, 'demo').catch(() => undefined));
      await sleep(1);
      if (passwordAdmission.inFlight + passwordAdmission.queued === before) break;
    }
    try {
      // Demo's next sign-in is turned away at once; tenant 1's is let in and answered.
      expect((await login(demoEmail, demoPassword, '10.5.1.1')).statusCode).toBe(503);
      const queued = passwordAdmission.queued;
      let answered = false;
      const other = app
        .inject({
          method: 'POST',
          url: '/1/api/1.0/login',
          payload: { email: 'nobody@one.test', password: demoPassword },
          remoteAddress: '10.5.1.2',
        })
        .then((res) => {
          answered = true;
          return res;
        });
      // It takes its place in the line (or, refused, is answered at once); then demo's work ends.
      while (!answered && passwordAdmission.queued === queued) await sleep(1);
      g.open();
      expect((await other).statusCode).toBe(401);
    } finally {
      g.open();
      await Promise.all(held);
    }
  });

  it('answers 503 with Retry-After to known and unknown e-mails alike, then signs in again', async () => {
    // Fill the process-wide gate and its line with work that waits.
    const g = gate();
    const held: Promise<unknown>[] = [];
    for (;;) {
      const before = passwordAdmission.inFlight + passwordAdmission.queued;
      held.push(passwordAdmission.run(g.task).catch(() => undefined));
      await sleep(1);
      if (passwordAdmission.inFlight + passwordAdmission.queued === before) break;
    }
    try {
      const known = await login(demoEmail, demoPassword, '10.5.0.1');
      const unknown = await login('nobody@demo.test', demoPassword, '10.5.0.2');
      for (const res of [known, unknown]) {
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.json()).toEqual({
          message: 'Too many sign-ins at once, retry shortly',
          code: 'service_unavailable',
        });
      }
      expect(known.body).toBe(unknown.body);
    } finally {
      g.open();
      await Promise.all(held);
    }
    expect((await login(demoEmail, demoPassword, '10.5.0.3')).statusCode).toBe(200);
  });
});
