import { readFileSync } from 'node:fs';

/**
 * Whether Linux's autogroups are on (`kernel.sched_autogroup_enabled`); null when the kernel does
 * not say (not Linux, no such file). With them on, the heavy-work threads' SCHED_IDLE gives way
 * only inside the portal's own group, which the isolation figure shows (docs/operations.md).
 */
export function autogroupsEnabled(
  read: () => string = () => readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8'),
): boolean | null {
  try {
    return read().trim() !== '0';
  } catch {
    return null;
  }
}
