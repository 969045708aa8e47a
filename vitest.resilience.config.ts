import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** The log scan reads what every other file's processes wrote: it runs last. */
class LogScanLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const last = (f: TestSpecification) => (f.moduleId.includes('logs.resilience') ? 1 : 0);
    return [...files].sort((a, b) => last(a) - last(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

/**
 * `npm run test:resilience`: the slow half of the security and reliability suite (SECURITY.md).
 * Real API processes on a private PostgreSQL cluster: faults, load, card flow and the log scan,
 * one file at a time (they start servers and measure memory), bounded in time.
 */
export default defineConfig({
  test: {
    name: 'resilience',
    include: ['apps/api/resilience/**/*.resilience.ts'],
    globalSetup: ['apps/api/resilience/global-setup.ts'],
    fileParallelism: false,
    sequence: { sequencer: LogScanLast },
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
