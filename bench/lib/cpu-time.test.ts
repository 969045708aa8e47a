import { spawn } from 'node:child_process';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresCpuSeconds, processCpuSeconds, treeCpuSeconds } from './cpu-time.ts';
import { parseProcStat } from './processes.ts';

describe('parseProcStat', () => {
  it('counts the fields from the last parenthesis, whatever the command name holds', () => {
    // A real line of a postgres backend, its name changed to hold spaces and parentheses.
    const line =
      '2232 (postgres: a) b (c) S 2227 2227 2227 0 -1 4194624 253 0 0 0 1234 567 89 10 20 0 1 0 1553 226398208 1761 18446744073709551615 1 1 0 0 0 0 0 16781312 16897 0 0 0 17 1 0 0 0 0 0';
    expect(parseProcStat(line)).toEqual({
      comm: 'postgres: a) b (c',
      ppid: 2227,
      own: (1234 + 567) / 100,
      children: (89 + 10) / 100,
    });
  });

  it('refuses a line that is not one', () => {
    expect(() => parseProcStat('nothing here')).toThrow(/not a \/proc stat line/);
  });
});

describe('CPU seconds', () => {
  it('grow with the work a process does', async () => {
    const child = spawn(process.execPath, [
      '-e',
      'const end = Date.now() + 400; while (Date.now() < end); setTimeout(() => {}, 5000);',
    ]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 700));
      // 400 ms of a busy loop: at least a quarter of it, whatever else the machine does.
      expect(processCpuSeconds(child.pid as number)).toBeGreaterThanOrEqual(0.1);
    } finally {
      child.kill();
    }
  });

  it('fails for a process that is gone', () => {
    expect(() => processCpuSeconds(2 ** 22 + 1)).toThrow(/is gone/);
    expect(() => treeCpuSeconds(2 ** 22 + 1)).toThrow(/is gone/);
  });

  it("of a process tree count the children's work", async () => {
    // A shell whose only work is done by its child: the busy loop.
    const shell = spawn('sh', [
      '-c',
      `"${process.execPath}" -e 'const end = Date.now() + 400; while (Date.now() < end); setTimeout(() => {}, 5000)'; sleep 5`,
    ]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(processCpuSeconds(shell.pid as number)).toBeLessThan(0.05);
      expect(treeCpuSeconds(shell.pid as number)).toBeGreaterThanOrEqual(0.1);
    } finally {
      shell.kill();
    }
  });
});

describe('postgresCpuSeconds', () => {
  it("keeps the time of a backend that has ended (the machine's PostgreSQL)", async () => {
    const before = postgresCpuSeconds();
    expect(before).toBeGreaterThan(0);
    const client = new pg.Client({
      connectionString:
        process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    });
    await client.connect();
    await client.query('SELECT count(*) FROM generate_series(1, 3000000)');
    await client.end();
    // The backend has exited: its time now sits with the postmaster's children.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((postgresCpuSeconds() as number) - (before as number)).toBeGreaterThanOrEqual(0.05);
  });
});
