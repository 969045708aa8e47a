import type { FastifyInstance } from 'fastify';

/**
 * Runs `work` every `seconds` in this process (the outboxes, the reconciliation), never two runs
 * at once: a tick that finds the previous run still going is skipped. A failed run is logged and
 * the next tick tries again. On close the timer stops and a run in flight finishes before the
 * database closes. Every API process runs the loops; the work claims its rows with
 * `FOR UPDATE SKIP LOCKED`, so processes share it instead of repeating it.
 */
export function runEvery(
  app: FastifyInstance,
  seconds: number,
  name: string,
  work: () => Promise<unknown>,
): void {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = work()
      .catch((error: unknown) => app.log.error({ err: error }, `${name} failed`))
      .finally(() => {
        running = null;
      });
  }, seconds * 1000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
