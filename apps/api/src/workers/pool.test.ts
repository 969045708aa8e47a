import type { TInvoiceDetail } from '@portal/contract';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.ts';
import { renderInvoicePdfBytes, type PdfInput } from '../modules/invoices/pdf.ts';
import { idleGroupName, prepareIdleGroup } from './idle-group.ts';
import { createHeavyWork, type HeavyWork } from './pool.ts';
import { isAlive } from '../../test/processes.ts';

/** An invoice of `lines` lines, with the tenant's SVG logo (bytes that cross the thread too). */
function longInvoice(lines: number): PdfInput {
  const invoice: TInvoiceDetail = {
    invoice_id: `LONG-${lines}`,
    invoice_date: '20260301',
    base: lines * 10,
    iva: lines * 2.1,
    total: lines * 12.1,
    import: lines * 12.1,
    pending: lines * 12.1,
    to_pay: lines * 12.1,
    customer_name: 'Laura García Martín',
    status: 0,
    state: 'pending',
    lines: Array.from({ length: lines }, (_, i) => ({
      person: `Alumno ${i + 1}`,
      concept: `Cuota mensual de la actividad número ${i + 1}`,
      quota: 'Marzo 2026',
      quantity: 1,
      unit_price: 10,
      iva: 21,
      amount: 10,
    })),
    payments: [
      {
        payment_id: 'p1',
        duedate: '20260305',
        method: 'Domiciliación',
        method_kind: 'direct_debit',
        import: lines * 12.1,
        paiddate: null,
        state: 'pending',
        status: 'pending',
      },
    ],
  };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0a7"/></svg>`;
  return {
    invoice,
    tenant: {
      company_name: 'Demo Fitness',
      legal_name: 'Demo Fitness S.L.',
      legal_nif: 'B12345678',
      legal_address: 'Carrer Major 1, Girona',
      contact_email: 'secretaria@demo.test',
      primary_color: '0a7a55',
      logo_mime: 'image/svg+xml',
      logo_data: new TextEncoder().encode(svg),
    },
    customer: {
      name: 'Laura García Martín',
      nif: '12345678Z',
      address: 'Carrer Nou 2',
      postal_code: '17001',
      city: 'Girona',
      province: 'Girona',
      country: 'España',
      email: 'cliente@demo.test',
    },
    language: 'es',
    todayApi: '20260310',
    createdAt: new Date('2026-03-10T10:00:00Z'),
  };
}

describe('the heavy-work pool', () => {
  let pool: HeavyWork | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('draws in its own process the same bytes as the renderer in the server', async () => {
    pool = createHeavyWork({ threads: 1, maxQueue: 4 });
    const input = longInvoice(120);
    const inProcess = Buffer.from(await renderInvoicePdfBytes(input));
    const fromPool = await pool.renderInvoicePdf('t1', input);
    expect(fromPool.subarray(0, 5).toString()).toBe('%PDF-');
    expect(fromPool.equals(inProcess)).toBe(true);
  });

  it('keeps the event loop free while a long PDF is drawn', async () => {
    pool = createHeavyWork({ threads: 1, maxQueue: 4 });
    // The process is started (and the renderer compiled) first, so that only the drawing counts.
    await pool.renderInvoicePdf('t1', longInvoice(1));
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    await pool.renderInvoicePdf('t1', longInvoice(500));
    clearInterval(timer);
    // Drawn in process, the 500 lines hold the loop in one piece: not one tick until the end.
    expect(ticks).toBeGreaterThan(20);
  });

  /** The kernel's own word for a thread: field 41 of its stat is the policy (5: SCHED_IDLE). */
  const policyOf = (pid: number, tid: number) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[41 - 3];
  };
  const threadsOf = (pid: number) => readdirSync(`/proc/${pid}/task`).map(Number);

  it.runIf(process.platform === 'linux')(
    "runs every thread of its process under SCHED_IDLE (the garbage collector's too), none of the server's",
    async () => {
      pool = createHeavyWork({ threads: 1, maxQueue: 4 });
      // A PDF first, so that the threads a task starts are there too.
      await pool.renderInvoicePdf('t1', longInvoice(50));
      const place = await pool.placement();
      if (place.policy !== 'idle') throw new Error(place.reason);
      expect(place.pid).not.toBe(process.pid);
      const threads = threadsOf(place.pid);
      // Node's main thread, V8's platform threads, libuv's: more than the one that draws.
      expect(threads.length).toBeGreaterThanOrEqual(place.threads);
      expect(place.threads).toBeGreaterThan(4);
      expect(threads.map((tid) => policyOf(place.pid, tid))).toEqual(threads.map(() => '5'));
      // The server's threads keep the normal policy.
      for (const tid of threadsOf(process.pid)) expect(policyOf(process.pid, tid)).toBe('0');
    },
  );

  it.runIf(process.platform === 'linux')(
    'puts its process in the idle cgroup it is given, where the kernel says its threads are',
    async () => {
      const group = prepareIdleGroup(undefined);
      pool = createHeavyWork({ threads: 1, maxQueue: 4, idleGroup: group });
      await pool.renderInvoicePdf('t1', longInvoice(50));
      const place = await pool.placement();
      const cgroupsOf = (pid: number, tid: number) =>
        readFileSync(`/proc/${pid}/task/${tid}/cgroup`, 'utf8');
      if (group.dir === null) {
        // A host that lets no process make the group (cgroup v2, a read-only hierarchy): the
        // process says why and stays in the server's cgroup.
        expect(place.cgroup).toEqual({ group: null, reason: group.reason });
        expect(cgroupsOf(place.pid, place.pid)).not.toContain(idleGroupName);
        return;
      }
      expect(place.cgroup).toEqual({ group: group.dir });
      const inGroup = new RegExp(`:cpu(,[a-z]+)*:.*/${idleGroupName}\n`);
      for (const tid of threadsOf(place.pid)) expect(cgroupsOf(place.pid, tid)).toMatch(inGroup);
      expect(readFileSync(`${group.dir}/cpu.idle`, 'utf8').trim()).toBe('1');
      // The server's threads stay where the server is.
      for (const tid of threadsOf(process.pid))
        expect(cgroupsOf(process.pid, tid)).not.toContain(idleGroupName);
    },
  );

  it("answers a task's error as that task's, and the process goes on", async () => {
    pool = createHeavyWork({ threads: 1, maxQueue: 4 });
    const first = await pool.placement();
    // No invoice to draw: the renderer throws in the process.
    await expect(
      pool.renderInvoicePdf('t1', { ...longInvoice(1), invoice: null } as unknown as PdfInput),
    ).rejects.toThrow(/Cannot read properties of null/);
    expect((await pool.placement()).pid).toBe(first.pid);
  });

  it('answers a 503 for the task of a process that was killed, and the next task gets a new one', async () => {
    pool = createHeavyWork({ threads: 1, maxQueue: 4 });
    const { pid } = await pool.placement();
    const drawing = pool.renderInvoicePdf('t1', longInvoice(2_000));
    await new Promise((go) => setTimeout(go, 100));
    process.kill(pid, 'SIGKILL');
    await expect(drawing).rejects.toMatchObject({ statusCode: 503 });
    const next = await pool.placement();
    expect(next.pid).not.toBe(pid);
    expect((await pool.renderInvoicePdf('t1', longInvoice(1))).subarray(0, 5).toString()).toBe(
      '%PDF-',
    );
  });

  it('says in the log which task and tenant waited on a process never ready, and answers 503', async () => {
    const logs: string[] = [];
    // No process of this machine is ready within 1 ms of its fork: each start counts as a hang.
    pool = createHeavyWork({ threads: 1, maxQueue: 4, startMs: 1, log: (line) => logs.push(line) });
    await expect(pool.renderInvoicePdf('t1', longInvoice(1))).rejects.toMatchObject({
      statusCode: 503,
    });
    expect(logs.filter((line) => /not ready within 1 ms/.test(line))).toEqual([
      'Heavy work: The heavy-work process ended (not ready within 1 ms of its start; it was killed) before it answered (task renderInvoicePdf, tenant t1)',
    ]);
  });

  it("stops a task past its lane's deadline: an SVG logo of nested copies no longer holds a place for hours", async () => {
    const logs: string[] = [];
    pool = createHeavyWork({
      threads: 1,
      maxQueue: 4,
      deadlines: { documents: 2_000, batches: 2_000 },
      log: (line) => logs.push(line),
    });
    // Warm: the process is started (and the renderer compiled) before the deadline is measured.
    const { pid } = await pool.placement();
    // Eight levels of ten copies each: 10^8 squares from under a kilobyte (four levels draw in
    // about two seconds here; each level more takes ten times as long).
    let defs = '<g id="l0"><rect width="1" height="1"/></g>';
    for (let level = 1; level <= 8; level++)
      defs += `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs>${defs}</defs><use href="#l8"/></svg>`;
    const bomb = longInvoice(1);
    bomb.tenant = { ...bomb.tenant, logo_data: new TextEncoder().encode(svg) };
    const started = performance.now();
    await expect(pool.renderInvoicePdf('t1', bomb)).rejects.toMatchObject({
      statusCode: 503,
      message: 'The work took too long and was stopped',
    });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(pool.load().documents.stopped).toBe(1);
    expect(logs.some((line) => /renderInvoicePdf ran past 2000 ms.*tenant t1/.test(line))).toBe(
      true,
    );
    // The process that drew it is gone; the next task, another tenant's, gets a new one at once.
    await expect.poll(() => isAlive(pid)).toBe(false);
    const next = await pool.renderInvoicePdf('t2', longInvoice(1));
    expect(next.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await pool.placement()).pid).not.toBe(pid);
  });

  it.runIf(process.platform === 'linux')(
    'does not stop a task past its deadline while its process waits for a core (its CPU time counts)',
    async () => {
      pool = createHeavyWork({
        threads: 1,
        maxQueue: 4,
        deadlines: { documents: 1_500, batches: 1_500 },
      });
      const { pid } = await pool.placement();
      const drawing = pool.renderInvoicePdf('t1', longInvoice(100));
      // Stopped: as on a saturated host, where the idle-priority process gets no core for long.
      process.kill(pid, 'SIGSTOP');
      await new Promise((go) => setTimeout(go, 3_000));
      process.kill(pid, 'SIGCONT');
      expect((await drawing).subarray(0, 5).toString()).toBe('%PDF-');
      expect(pool.load().documents.stopped).toBe(0);
      expect((await pool.placement()).pid).toBe(pid);
    },
  );

  it('ends a process that has been idle, and starts one again for the next task', async () => {
    pool = createHeavyWork({ threads: 1, maxQueue: 4, idleMs: 100 });
    const { pid } = await pool.placement();
    expect(pool.processes).toBe(1);
    await new Promise((go) => setTimeout(go, 600));
    expect(pool.processes).toBe(0);
    // Gone from the machine, not only from the pool. Told to end, the process still needs a core
    // to do it, and under SCHED_IDLE it gets one only when nothing else wants it: on a busy host
    // (the whole suite on two cores) that can take seconds.
    const alive = () => isAlive(pid);
    for (let waited = 0; alive() && waited < 30_000; waited += 50) {
      await new Promise((go) => setTimeout(go, 50));
    }
    expect(alive()).toBe(false);
    expect((await pool.placement()).pid).not.toBe(pid);
  });

  it('on close lets the running task finish, refuses the waiting one, and ends the process', async () => {
    const closing = createHeavyWork({ threads: 1, maxQueue: 4 });
    const { pid } = await closing.placement();
    const running = closing.renderInvoicePdf('t1', longInvoice(500));
    // Its refusal is caught as it comes (it comes while close() is awaited).
    const waiting = closing.renderInvoicePdf('t1', longInvoice(1)).then(
      () => 'drawn',
      (error: unknown) => error,
    );
    await new Promise((go) => setTimeout(go, 50));
    await closing.close();
    expect((await running).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await waiting).toMatchObject({ statusCode: 503 });
    expect(closing.processes).toBe(0);
    await expect.poll(() => isAlive(pid)).toBe(false);
  });

  it('refuses at once, with a 503 and Retry-After, what the queue cannot take', async () => {
    pool = createHeavyWork({ threads: 1, maxQueue: 1 });
    const settled: string[] = [];
    const runs = Array.from({ length: 4 }, (_, i) =>
      (pool as HeavyWork).renderInvoicePdf('t1', longInvoice(200)).then(
        () => settled.push(`done ${i}`),
        (error: unknown) => {
          settled.push(`refused ${i}`);
          throw error;
        },
      ),
    );
    const results = await Promise.allSettled(runs);
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(refused.length).toBeGreaterThan(0);
    for (const error of refused) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        statusCode: 503,
        code: 'service_unavailable',
        headers: { 'retry-after': '2' },
      });
    }
    // The refusals came before any accepted document was done: nothing waited to be refused.
    expect(settled.slice(0, refused.length).every((s) => s.startsWith('refused'))).toBe(true);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
  });

  it("keeps each tenant to half a lane: one tenant's burst is refused, another tenant still gets in", async () => {
    // One slot and three places in line: four in all, two a tenant.
    pool = createHeavyWork({ threads: 1, maxQueue: 3 });
    let finish = () => {};
    const first = pool.inSlot('busy', () => new Promise<void>((go) => (finish = go)));
    const second = pool.inSlot('busy', async () => 'second');
    // The line has room, but not for a third of the busy tenant's: a 503 at once.
    await expect(pool.inSlot('busy', async () => 'third')).rejects.toMatchObject({
      statusCode: 503,
      headers: { 'retry-after': '2' },
    });
    // Another tenant's batch waits in line as usual.
    const other = pool.inSlot('quiet', async () => 'other');
    expect(pool.load().batches).toEqual({
      running: 1,
      waiting: 2,
      refused: 1,
      stopped: 0,
      processes: 0,
    });
    finish();
    await first;
    expect(await second).toBe('second');
    expect(await other).toBe('other');
    // Its tasks done, the busy tenant has its share again.
    expect(await pool.inSlot('busy', async () => 'again')).toBe('again');
  });

  it('gives batches a lane of their own: another batch waits for the one running, a PDF does not', async () => {
    pool = createHeavyWork({ threads: 1, maxQueue: 1 });
    const order: string[] = [];
    let finishBatch = () => {};
    // The heavy work of the embedded database (a batch's writes) holds the batches' one slot.
    const batch = pool.inSlot('t1', async () => {
      order.push('batch started');
      await new Promise<void>((go) => (finishBatch = go));
      order.push('batch done');
    });
    // The next batch, parsed in the batches' process, waits in line; a third is refused at once.
    const next = pool.prepareInvoices('t2', { invoices: [] }).then(
      () => order.push('next batch done'),
      () => order.push('next batch done'),
    );
    await expect(pool.inSlot('t3', async () => 'third')).rejects.toMatchObject({ statusCode: 503 });
    // What /metrics reads: one batch running, one waiting, one refused; the documents' lane idle.
    expect(pool.load()).toEqual({
      documents: { running: 0, waiting: 0, refused: 0, stopped: 0, processes: 0 },
      batches: { running: 1, waiting: 1, refused: 1, stopped: 0, processes: 0 },
    });
    // Another tenant's customer's PDF is drawn meanwhile, in the documents' lane.
    expect((await pool.renderInvoicePdf('t4', longInvoice(50))).subarray(0, 5).toString()).toBe(
      '%PDF-',
    );
    order.push('pdf done');
    expect(order).toEqual(['batch started', 'pdf done']);
    finishBatch();
    await Promise.all([batch, next]);
    expect(order).toEqual(['batch started', 'pdf done', 'batch done', 'next batch done']);
    // Each lane has its own process, both under the same idle policy.
    const [documents, batches] = [await pool.placement(), await pool.placement('batches')];
    expect(documents.pid).not.toBe(batches.pid);
    expect(batches.policy).toBe(documents.policy);
    expect(pool.processes).toBe(2);
  });
});
