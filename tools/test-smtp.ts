import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; raw: string };

/** Decodes the quoted-printable soft breaks and escapes nodemailer uses for non-ASCII bodies. */
export function decodeQuotedPrintable(raw: string): string {
  const bytes = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * A real SMTP server on localhost collecting what it receives: on a free port, or on `port` when a
 * process started elsewhere (the end-to-end tests' server) already knows where to send.
 */
export async function startSmtp({ port: fixedPort = 0 }: { port?: number } = {}) {
  const inbox: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  /** Addresses whose mailbox the server refuses (550 at RCPT TO), as a real one may. */
  const rejected = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!rejected.has(address.address.toLowerCase())) return callback();
      callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: decodeQuotedPrintable(Buffer.concat(chunks).toString('latin1')),
        });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(fixedPort, '127.0.0.1', resolve);
  });
  // A client that goes away mid-conversation (an instance a resilience test kills while it sends
  // a mail) makes the server emit 'error' with ECONNRESET; without a listener that would crash
  // the test run. The mail it was sending is simply not in the inbox, which the tests see.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE')
      console.warn('test SMTP server:', err.message);
  });
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    rejected,
    /**
     * Waits until a message to `to` arrives (or fails after `ms`). The "was this you?" notice any
     * sign-in from a new browser may send (header `X-Portal-Mail: new-device`) is passed over
     * unless `kind` asks for it. With `containing`, only a message whose text has it.
     */
    async waitFor(
      to: string,
      ms = 10_000,
      kind?: string,
      containing?: string,
    ): Promise<ReceivedMail> {
      const deadline = Date.now() + ms;
      const kindOf = (m: ReceivedMail) => /^X-Portal-Mail: *(\S+)/im.exec(m.raw)?.[1];
      for (;;) {
        const found = inbox.find(
          (m) =>
            m.to.includes(to) &&
            (kind ? kindOf(m) === kind : kindOf(m) !== 'new-device') &&
            (!containing || m.raw.includes(containing)),
        );
        if (found) {
          inbox.splice(inbox.indexOf(found), 1);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no e-mail to ${to} within ${ms} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
