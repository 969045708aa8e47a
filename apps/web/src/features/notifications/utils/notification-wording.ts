import { formatAmount } from '@/lib/money';
import type { NotificationItem } from '../api/get-notifications';
import type { NotificationsT } from '../use-notifications-t';

export type Worded = { title: string; message: string };

const euros = (cents: number) => formatAmount(cents / 100);
const list = (ids: readonly string[]) => ids.join(', ');

/**
 * The title and message of a notification in the reader's language. The portal's own ones come
 * as a type with parameters (amounts in cents, invoice ids: PRODUCT.md "Notifications are stored
 * as a type with parameters") and are worded here, amounts with the app's money formatter; the
 * organisation's come with their own texts, shown as written.
 */
export function wordNotification(notification: NotificationItem, t: NotificationsT): Worded {
  if (notification.source === 'organisation') {
    return { title: notification.title, message: notification.message };
  }
  switch (notification.type) {
    case 'payment_succeeded': {
      const { amount_cents, invoices } = notification.params;
      return {
        title: t('payment.succeeded.title'),
        message: t('payment.succeeded.message', {
          amount: euros(amount_cents),
          invoices: list(invoices),
        }),
      };
    }
    case 'payment_failed':
      return {
        title: t('payment.failed.title'),
        message: t('payment.failed.message', { amount: euros(notification.params.amount_cents) }),
      };
    case 'payment_overpaid': {
      const { amount_cents, refund_cents, invoices, refund } = notification.params;
      const values = {
        amount: euros(amount_cents),
        refund: euros(refund_cents),
        invoices: list(invoices),
      };
      const manual = refund === 'manual';
      const whole = refund_cents >= amount_cents;
      return {
        title: manual ? t('payment.overpaid.titleManual') : t('payment.overpaid.title'),
        message: whole
          ? manual
            ? t('payment.overpaid.wholeManual', values)
            : t('payment.overpaid.whole', values)
          : manual
            ? t('payment.overpaid.partialManual', values)
            : t('payment.overpaid.partial', values),
      };
    }
    case 'payment_refunded': {
      const { refund_cents, invoices } = notification.params;
      return {
        title: t('payment.refunded.title'),
        message: t('payment.refunded.message', {
          refund: euros(refund_cents),
          invoices: list(invoices),
        }),
      };
    }
    case 'invoice_new':
      return {
        title: t('events.invoiceNew.title'),
        message: t('events.invoiceNew.message', { invoice: notification.params.invoice_id }),
      };
    case 'method_verified': {
      const alias = notification.params.alias.trim();
      return {
        title: t('events.methodVerified.title'),
        message: alias
          ? t('events.methodVerified.message', { alias })
          : t('events.methodVerified.messageNoAlias'),
      };
    }
    case 'request_reviewed': {
      const { request, answer } = notification.params;
      const approved = answer === 'approved';
      return {
        title: approved
          ? t('events.requestReviewed.approved')
          : t('events.requestReviewed.rejected'),
        message:
          request === 'main_change'
            ? approved
              ? t('events.requestReviewed.mainApproved')
              : t('events.requestReviewed.mainRejected')
            : approved
              ? t('events.requestReviewed.verificationApproved')
              : t('events.requestReviewed.verificationRejected'),
      };
    }
    case 'fiscal_data_reviewed': {
      const { answer } = notification.params;
      const reason = notification.params.reason.trim();
      return answer === 'approved'
        ? {
            title: t('events.fiscalDataReviewed.approved'),
            message: t('events.fiscalDataReviewed.approvedMessage'),
          }
        : {
            title: t('events.fiscalDataReviewed.rejected'),
            message: reason
              ? t('events.fiscalDataReviewed.rejectedMessage', { reason })
              : t('events.fiscalDataReviewed.rejectedNoReason'),
          };
    }
    case 'debit_returned': {
      const { amount_cents, invoice_id, fee_cents, fee_charged } = notification.params;
      const message = t('events.debitReturned.message', {
        amount: euros(amount_cents),
        invoice: invoice_id,
      });
      return {
        title: t('events.debitReturned.title'),
        message:
          fee_charged && fee_cents > 0
            ? `${message} ${t('events.debitReturned.fee', { fee: euros(fee_cents) })}`
            : message,
      };
    }
    case 'invoice_thread_answered':
      return {
        title: t('events.invoiceThreadAnswered.title'),
        message: t('events.invoiceThreadAnswered.message', {
          invoice: notification.params.invoice_id,
        }),
      };
    case 'auto_pay_failed': {
      const { amount_cents, invoice_id, retry } = notification.params;
      const values = { amount: euros(amount_cents), invoice: invoice_id };
      return {
        title: t('autoPay.failed.title'),
        message: retry ? t('autoPay.failed.retry', values) : t('autoPay.failed.final', values),
      };
    }
  }
}
