// `npm run typecheck`: `tsc --noEmit` on every TypeScript project of the repository, two at a time
// (the runners have two cores; one after another took twice as long), the largest first. Prints
// each project's errors as it finishes and exits 1 if any project has one.
import { createRequire } from 'node:module';
import { runCollected } from './run-collected.ts';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = [
  'apps/api',
  'apps/web',
  '.',
  'apps/redsys-sim',
  'packages/redsys',
  'packages/contract',
];
const parallel = 2;

const check = (project: string) =>
  runCollected(`tsc -p ${project}`, tsc, ['-p', project, '--noEmit']);

const queue = [...projects];
let ok = true;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      ok = (await check(project)) && ok;
    }
  }),
);
process.exit(ok ? 0 : 1);
