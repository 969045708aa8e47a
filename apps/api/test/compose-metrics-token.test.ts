import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { configProblems } from '../src/production-checks.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * deploy/compose.yaml (docs/operations.md "Container") gives every portal process, and the
 * migrations, `METRICS_TOKEN: ${METRICS_TOKEN:-}`: an empty string when the operator does not set
 * one. README says unset means "/metrics is a 404", but config.ts takes the empty string as a token
 * under 32 characters and refuses to start: `docker compose up` with only APP_SECRET and SMTP_URL
 * (the command the file's first lines give) started neither the migrations nor any instance
 * (ops review, session 36). An empty token is now unset.
 */
function composeEnvironment(given: Record<string, string>): Record<string, string> {
  // The lines of the portal's `environment: &portal-env` block (`    NAME: value`).
  const text = readFileSync(`${repoRoot}deploy/compose.yaml`, 'utf8');
  const block = /environment: &portal-env\n((?: {4}\w+: .*\n)+)/.exec(text)?.[1] ?? '';
  const entries = [...block.matchAll(/^ {4}(\w+): (.*)$/gm)].map(
    ([, name, value]) => [name ?? '', (value ?? '').replace(/^'(.*)'$/, '$1')] as const,
  );
  expect(entries.map(([name]) => name)).toContain('DATABASE_URL');
  // Compose's interpolation: ${VAR:-default}, ${VAR:?message}, ${VAR}.
  const interpolate = (value: string) =>
    value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind, rest: string) => {
      const set = given[name];
      if (set !== undefined && set !== '') return set;
      if (kind === '-') return rest;
      if (kind === '?') throw new Error(`compose: ${name} is required (${rest})`);
      return '';
    });
  return {
    NODE_ENV: 'production', // the image's ENV (Dockerfile)
    ...Object.fromEntries(entries.map(([k, v]) => [k, interpolate(v)])),
  };
}

describe('the compose file, run as its header says', () => {
  it('starts with APP_SECRET and SMTP_URL given and no METRICS_TOKEN: /metrics simply off', () => {
    const env = composeEnvironment({
      APP_SECRET: randomBytes(32).toString('base64'),
      SMTP_URL: 'smtp://portal:pw@smtp.example.com:587',
    });
    const config = loadConfig(env);
    expect(config.METRICS_TOKEN).toBeUndefined();
    expect(configProblems(config)).toEqual([]);
  });
});
