import { customerLimits, threadMessageMaxLength } from '@portal/contract';
import { ZThreadMessageText } from '@portal/contract/invoice-threads';
import { ApiError } from '@/lib/api-client';
import type { ThreadsT } from '../use-threads-t';

/** Why a message was not taken, worded from the API's code (never its prose). */
export function sendFailureText(error: unknown, t: ThreadsT): string {
  if (!(error instanceof ApiError)) return t('errors.generic');
  switch (error.code) {
    case 'invoice_thread_limit':
      return t('errors.limit', { max: customerLimits.openInvoiceThreads });
    case 'invoice_thread_closed':
      return t('errors.closed');
    case 'rate_limited':
      return t('errors.rate');
    case 'network_error':
      return t('errors.network');
    case 'not_found':
      return t('errors.notFound');
    case 'validation_failed': {
      const code = error.errors?.message?.[0];
      return code ? messageErrorText(code, t) : t('errors.generic');
    }
    default:
      return t('errors.generic');
  }
}

/** The field's own problem, checked with the contract's schema (the server's) before sending. */
export function checkMessage(text: string): string | undefined {
  const result = ZThreadMessageText.safeParse(text);
  return result.success ? undefined : result.error.issues[0]?.message;
}

export function messageErrorText(code: string, t: ThreadsT): string {
  switch (code) {
    case 'required':
      return t('errors.required');
    case 'too_long':
      return t('errors.too_long', { max: threadMessageMaxLength });
    case 'invalid_characters':
      return t('errors.invalid_characters');
    default:
      return t('errors.generic');
  }
}
