/**
 * The Node.js flags the server runs with: `npm run serve` (apps/api's `start`) and the container's
 * CMD pass them, and the bench and the resilience suite start it the same way. They must be on the
 * command line: V8 refuses `--single-threaded-gc` in NODE_OPTIONS, and setting it at run time
 * (`v8.setFlagsFromString`) crashed V8 at the next collection (tried on Node 20).
 *
 * `--single-threaded-gc`: the server's own garbage is collected on its main thread only. By default
 * V8 collects it on four more threads at normal priority (Node's platform pool, whatever the number
 * of cores), and beside the heavy work, whose requests pass megabytes through the server, those
 * collections took both of the bench's cores for 35-50 ms at a time: the other tenants' requests
 * waited (a thread sampler saw the server's four platform threads running and the main thread
 * waiting). Measured with the flag: the isolation figure 1.50x and 1.94x against 2.67x-5.18x without
 * it; the API's throughput and CPU per request moved within their noise (decision 041).
 */
export const serverNodeFlags: readonly string[] = ['--single-threaded-gc'];

/** The flags the running process lacks (the server logs them at start). */
export const missingServerFlags = (execArgv: readonly string[] = process.execArgv): string[] =>
  serverNodeFlags.filter((flag) => !execArgv.includes(flag));
