import { buildSimulator } from './app.ts';

/**
 * Starts the simulator: REDSYS_SIM_PORT (3001) on HOST (localhost). REDSYS_SIM_INSPECT=true adds
 * the test-only /__sim/ endpoints; REDSYS_SIM_PUBLIC_URL sets the base of its own pages' links;
 * REDSYS_SIM_DEMO_REFERENCE_PREFIX (default "demo") lets the demo seed's saved cards pay.
 */
async function main() {
  const port = Number(process.env.REDSYS_SIM_PORT ?? 3001);
  const host = process.env.HOST ?? 'localhost';
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`REDSYS_SIM_PORT must be a port number, got "${process.env.REDSYS_SIM_PORT}"`);
  }
  const app = buildSimulator({
    inspect: process.env.REDSYS_SIM_INSPECT === 'true',
    publicUrl: process.env.REDSYS_SIM_PUBLIC_URL ?? '',
    demoReferencePrefix: process.env.REDSYS_SIM_DEMO_REFERENCE_PREFIX ?? 'demo',
    logger: { level: process.env.LOG_LEVEL ?? 'info' },
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host, port });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  console.log(
    `\n  Redsys simulator: POST http://${host}:${actualPort}/sis/realizarPago` +
      ` (public test merchant 999008881 / terminal 1)\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
