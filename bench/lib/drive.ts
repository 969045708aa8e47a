import { Pool } from 'undici';
import { seededRandom } from '../../apps/api/src/db/seed/random.ts';
import type { Session } from '../api.ts';

/** One request of a session: its path, headers and JSON body. */
export type SessionRequest = (session: Session) => {
  path: string;
  headers: Record<string, string>;
  body: string;
};

/**
 * `count` requests to `url`, `connections` at a time through undici's Pool, each for a session
 * chosen at random (seeded): the load of the bench's diagnoses (ab-cpu.ts, main-thread.ts). Throws
 * on an answer other than 200, so that a wrong token or body cannot pass for a fast one.
 */
export async function drive(
  url: string,
  sessions: readonly Session[],
  request: SessionRequest,
  { count, connections, seed }: { count: number; connections: number; seed: number },
): Promise<void> {
  const pool = new Pool(url, { connections });
  const random = seededRandom(seed);
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent++;
      const s = sessions[Math.floor(random() * sessions.length)] as Session;
      const res = await pool.request({ method: 'POST', ...request(s) });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  await pool.close();
}
