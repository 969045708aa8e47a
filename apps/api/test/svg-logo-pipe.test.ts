import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../src/db/seed/demo.ts';
import { isoToApi, todayIso } from '../src/lib/dates.ts';
import { adminCommand } from './admin-run.ts';
import { engines, openTestApp, type TestApp } from './engines.ts';
import { signedIn } from './session.ts';

/*
 * What is wrong: an SVG logo's `<image href="/some/path">` is opened by svg-to-pdfkit's default
 * image loader, pdfkit's `openImage`, with `fs.readFileSync` (apps/api/src/modules/invoices/pdf.ts,
 * `drawLogo`, no `imageCallback`), and the heavy-work pool gives a task no time limit
 * (apps/api/src/workers/pool.ts, process-pool.ts). A path that never ends or never answers (a pipe:
 * `/proc/self/fd/1` when the server logs to a pipe, as in a container; `/dev/zero` reads until the
 * process runs out of memory) holds the heavy-work process that draws the PDF, and with it a slot of
 * the documents lane, for ever. Here the path is a named pipe nobody writes to, which blocks the
 * same way without using CPU or memory.
 *
 * Why it matters: one tenant's logo takes every tenant's PDFs down (invoices, receipts,
 * statements, mandates): with the default one process per lane on a two-core machine, the other
 * tenants' customers wait for a PDF that never comes (then 503s once the line is full).
 *
 * Right behaviour: the logo draws no file (an `imageCallback` that passes only `data:` images), and
 * a heavy task that runs past a bound is ended (its process killed, the request a 503), so nothing
 * one tenant sends can hold the lane.
 */
const metricsToken = 'svg-logo-pipe-metrics-token-0123456789';
const today = isoToApi(todayIso());
const range = { datefrom: `${Number(today.slice(0, 4)) - 5}${today.slice(4)}`, dateto: today };

describe.each(engines())("a tenant's SVG logo and the other tenants' PDFs on $name", (engine) => {
  let env: TestApp;
  let dir: string;
  let pipe: string;
  /** Lets a reader blocked on the pipe go on (it reads an empty file); nothing if none waits. */
  const release = () => {
    try {
      closeSync(openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is reading it.
    }
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'review4-ops-'));
    pipe = join(dir, 'never-written');
    execFileSync('mkfifo', [pipe]);
    env = await openTestApp(engine, { WORKER_THREADS: '1', METRICS_TOKEN: metricsToken });
  });
  afterAll(async () => {
    release();
    await env.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The link to the latest invoice's PDF of the demo customer of `tenant`. */
  const pdfLink = async (tenant: string) => {
    const me = await signedIn(env.app, tenant, demoEmail);
    const list = await me.post('/invoices', { ...range, page: '1' });
    const [latest] = list.json<{ invoices: { invoice_id: string }[] }>().invoices;
    const link = await me.post('/invoice/pdf', { invoice_id: latest?.invoice_id ?? '' });
    expect(link.statusCode, link.body).toBe(200);
    return link.json<{ url: string }>().url;
  };
  /** PDFs being drawn now (the documents lane's running tasks, as /metrics reports them). */
  const documentsRunning = async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    const line = /portal_heavy_work_tasks\{lane="documents",state="running"\} (\d+)/.exec(res.body);
    return Number(line?.[1] ?? -1);
  };

  it("answers another tenant's invoice PDF while one tenant's logo names a file that never ends", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="${pipe}" width="10" height="10"/></svg>`;
    const admin = adminCommand(env.db, undefined, {
      readFile: async () => new TextEncoder().encode(svg),
    });
    const set = await admin('tenant', 'update', '--id', 'demo', '--logo', '/in/logo.svg');
    expect(set.code, set.err).toBe(0);
    try {
      const timeout = (ms: number) =>
        new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), ms).unref());
      // The demo tenant's customer opens an invoice (whatever they get, it must end)...
      const demoLink = await pdfLink('demo');
      const otherLink = await pdfLink('1');
      let demoDone = false;
      const demoPdf = env.app.inject({ method: 'GET', url: demoLink }).finally(() => {
        demoDone = true;
      });
      // ...its drawing takes the documents lane's slot (a state waited for, not a delay; once
      // the logo draws no file, the PDF may simply be done by then)...
      for (let i = 0; i < 200 && !demoDone && (await documentsRunning()) !== 1; i += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      // ...and then a customer of tenant 1, whose logo is an ordinary one, opens theirs.
      const other = await Promise.race([
        env.app.inject({ method: 'GET', url: otherLink }),
        timeout(20_000),
      ]);
      expect(other === 'no answer' ? 'no answer' : other.statusCode).toBe(200);
      const own = await Promise.race([demoPdf, timeout(20_000)]);
      expect(own === 'no answer' ? 'no answer' : own.statusCode).not.toBe('no answer');
    } finally {
      release();
    }
  }, 90_000);
});
