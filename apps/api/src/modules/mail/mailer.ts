import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';

/**
 * Who a tenant's e-mails come from: its `mail_from` as the operator set it (checked by the admin
 * CLI), else its company name on `no-reply@localhost`, the name given apart from the address so
 * that nodemailer quotes it. Written into one string, a name such as "Gym <Fit> & Co" became the
 * envelope sender `Fit` (refused: no reset, receipt or invitation arrived), "Club: Las Encinas" a
 * group that showed "Las Encinas", and quotes or brackets were dropped (session 39).
 */
export function senderOf(tenant: {
  mail_from: string | null;
  company_name: string;
}): string | { name: string; address: string } {
  return tenant.mail_from || { name: tenant.company_name, address: 'no-reply@localhost' };
}

export type Mail = {
  from: string | { name: string; address: string };
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
