import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { missingServerFlags, serverNodeFlags } from './node-flags.ts';

const file = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe("the server's Node.js flags", () => {
  it('says which ones a process lacks', () => {
    expect(missingServerFlags([])).toEqual([...serverNodeFlags]);
    expect(missingServerFlags(['--enable-source-maps', ...serverNodeFlags])).toEqual([]);
  });

  it("are what `npm run serve` and the container's CMD pass, before the entry", () => {
    const start = (JSON.parse(file('../package.json')) as { scripts: Record<string, string> })
      .scripts.start;
    expect(start).toBe(['node', ...serverNodeFlags, 'dist/server.js'].join(' '));
    const cmd = /^CMD (\[.*\])$/m.exec(file('../../../Dockerfile'))?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual([
      'node',
      ...serverNodeFlags,
      'apps/api/dist/server.js',
    ]);
  });
});
