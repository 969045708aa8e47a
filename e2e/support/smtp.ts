import { startSmtp } from '../../tools/test-smtp.ts';
import { smtpPort } from './env.ts';

export type Smtp = Awaited<ReturnType<typeof startSmtp>>;

/**
 * The local SMTP server the API sends to, on the one port the server knows. Several spec files
 * listen there in turn (recovery, contact), possibly in parallel workers: wait until the port is
 * free, and hold it only as long as the test needs it.
 */
export async function takeSmtp(): Promise<Smtp> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await startSmtp({ port: smtpPort });
    } catch (error) {
      const inUse = (error as { code?: string }).code === 'EADDRINUSE';
      if (!inUse || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
