import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export type Mail = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
};

export type Mailer = { send(mail: Mail): Promise<void> };

/**
 * Real SMTP when SMTP_URL is set (nodemailer). Without it (the local demo), each message is
 * written as an .eml file into the outbox folder, where any mail client opens it.
 */
export function createMailer(options: {
  smtpUrl?: string;
  outboxDir: string;
  log: (msg: string) => void;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail(mail);
      },
    };
  }
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(mail) {
      const info = await transport.sendMail(mail);
      await mkdir(options.outboxDir, { recursive: true });
      const file = join(
        options.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`,
      );
      await writeFile(file, info.message as Buffer);
      options.log(`e-mail to ${mail.to} written to ${file}`);
    },
  };
}
