// `npm run lint`: ESLint, Prettier's check and knip, two at a time (the runners have two cores and
// each tool uses about one: one after another took 41 s here, ESLint alone 21 s), ESLint beside
// the other two in turn. Prints each tool's output as it finishes and exits 1 if any fails.
import { fileURLToPath } from 'node:url';
import { runCollected } from './run-collected.ts';

/** A tool's command-line script as npm installed it (the paths its package.json `bin` names). */
const resolveBin = (pkg: string, bin: string) =>
  fileURLToPath(new URL(`../node_modules/${pkg}/${bin}`, import.meta.url));

type Tool = { name: string; script: string; args: string[] };
const eslint: Tool = {
  name: 'eslint',
  script: resolveBin('eslint', 'bin/eslint.js'),
  args: ['.', '--max-warnings=0'],
};
const prettier: Tool = {
  name: 'prettier',
  script: resolveBin('prettier', 'bin/prettier.cjs'),
  args: ['--check', '.'],
};
const knip: Tool = {
  name: 'knip',
  script: resolveBin('knip', 'bin/knip.js'),
  args: ['--no-progress'],
};

const run = ({ name, script, args }: Tool) => runCollected(name, script, args);

const results = await Promise.all([
  run(eslint),
  (async () => [await run(prettier), await run(knip)])(),
]);
process.exit(results.flat().every(Boolean) ? 0 : 1);
