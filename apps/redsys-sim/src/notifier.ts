import type { FastifyBaseLogger } from 'fastify';
import type { MerchantParameters, SignedMessage } from '@portal/redsys';
import { setTimeout as sleep } from 'node:timers/promises';

export type NotificationAttempt = {
  at: string;
  /** HTTP status of the merchant's answer; absent when it could not be reached. */
  status?: number;
  error?: string;
  ok: boolean;
};

/** One server-to-server notification and every attempt to deliver it. */
export type NotificationRecord = {
  order: string;
  merchantCode: string;
  terminal: string;
  url: string;
  dsResponse: string;
  /** The signed form exactly as POSTed (masked card number at most, never a PAN). */
  form: SignedMessage;
  /** The decoded Ds_MerchantParameters, for inspection. */
  params: MerchantParameters;
  resend: boolean;
  delivered: boolean;
  attempts: NotificationAttempt[];
};

export type NotifierSettings = {
  attempts: number;
  retryDelayMs: number;
  timeoutMs: number;
  now: () => Date;
};

/**
 * POSTs the notification as Redsys does (application/x-www-form-urlencoded) until the merchant
 * answers 2xx or the attempts run out, recording each attempt on the record.
 */
export async function deliverNotification(
  record: NotificationRecord,
  settings: NotifierSettings,
  log: FastifyBaseLogger,
): Promise<void> {
  const body = new URLSearchParams(record.form).toString();
  for (let attempt = 1; attempt <= settings.attempts; attempt += 1) {
    const at = settings.now().toISOString();
    try {
      const response = await fetch(record.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      await response.arrayBuffer().catch(() => undefined);
      record.attempts.push({ at, status: response.status, ok: response.ok });
      log.info(
        { order: record.order, dsResponse: record.dsResponse, attempt, status: response.status },
        'notification sent',
      );
      if (response.ok) {
        record.delivered = true;
        return;
      }
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      record.attempts.push({ at, error: message, ok: false });
      log.warn({ order: record.order, attempt, error: message }, 'notification failed');
    }
    if (attempt < settings.attempts) await sleep(settings.retryDelayMs);
  }
}
