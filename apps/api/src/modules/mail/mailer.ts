import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';

export type Mail = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** Extra headers, such as `X-Portal-Mail` naming the kind of a security notice. */
  headers?: Record<string, string>;
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
  // nodemailer is read with the first message, not at every start.
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      options.smtpUrl
        ? nodemailer.createTransport(options.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  if (options.smtpUrl) {
    return {
      async send(mail) {
        await (await open()).sendMail(mail);
      },
    };
  }
  return {
    async send(mail) {
      const info = (await (await open()).sendMail(mail)) as { message: Buffer };
      await mkdir(options.outboxDir, { recursive: true });
      const file = join(
        options.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`,
      );
      await writeFile(file, info.message);
      options.log(`e-mail to ${mail.to} written to ${file}`);
    },
  };
}
