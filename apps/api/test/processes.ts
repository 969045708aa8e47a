/** Whether process `pid` still exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
}
