import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { createMetrics } from './metrics.ts';

describe('the heavy work in /metrics', () => {
  it("reads each lane's running, waiting, refused, stopped and processes into its own series", async () => {
    const { registry } = createMetrics(
      // Only the series read below are collected: none of them asks the database.
      {} as Database,
      {
        staleAfterMinutes: 15,
        exposed: false,
        heavyWork: () => ({
          documents: { running: 1, waiting: 2, refused: 3, stopped: 7, processes: 1 },
          batches: { running: 4, waiting: 5, refused: 6, stopped: 8, processes: 2 },
        }),
      },
    );
    const read = async (name: string) => registry.getSingleMetricAsString(name);
    const tasks = await read('portal_heavy_work_tasks');
    expect(tasks).toContain('portal_heavy_work_tasks{lane="documents",state="running"} 1');
    expect(tasks).toContain('portal_heavy_work_tasks{lane="documents",state="waiting"} 2');
    expect(tasks).toContain('portal_heavy_work_tasks{lane="batches",state="running"} 4');
    expect(tasks).toContain('portal_heavy_work_tasks{lane="batches",state="waiting"} 5');
    const refused = await read('portal_heavy_work_refused_total');
    expect(refused).toContain('portal_heavy_work_refused_total{lane="documents"} 3');
    expect(refused).toContain('portal_heavy_work_refused_total{lane="batches"} 6');
    // A counter read twice is not counted twice.
    expect(await read('portal_heavy_work_refused_total')).toBe(refused);
    const stopped = await read('portal_heavy_work_stopped_total');
    expect(stopped).toContain('portal_heavy_work_stopped_total{lane="documents"} 7');
    expect(stopped).toContain('portal_heavy_work_stopped_total{lane="batches"} 8');
    const processes = await read('portal_heavy_work_processes');
    expect(processes).toContain('portal_heavy_work_processes{lane="documents"} 1');
    expect(processes).toContain('portal_heavy_work_processes{lane="batches"} 2');
  });
});
