import { formatAmount } from '@/lib/money';
import type { NotificationItem } from '../api/get-notifications';
import type { NotificationsT } from '../use-notifications-t';

type Params = NonNullable<NotificationItem['params']>;

const cents = (params: Params, key: string): number | null => {
  const value = params[key];
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
};
const euros = (value: number) => formatAmount(value / 100);
const invoicesOf = (params: Params): string | null => {
  const value = params.invoices;
  return Array.isArray(value) && value.length > 0 ? value.join(', ') : null;
};

/**
 * The title and message of a payment notification in the reader's language, from its type and
 * parameters (amounts in cents, invoice ids: PRODUCT.md "Notifications are stored as a type with
 * parameters"). Anything else, or parameters that do not fit, keeps the texts the server stored.
 */
export function wordNotification(
  notification: Pick<NotificationItem, 'type' | 'title' | 'message' | 'params'>,
  t: NotificationsT,
): { title: string; message: string } {
  const stored = { title: notification.title, message: notification.message };
  const params = notification.params;
  if (!params) return stored;
  const amount = cents(params, 'amount_cents');
  const refund = cents(params, 'refund_cents');
  const invoices = invoicesOf(params);
  switch (notification.type) {
    case 'payment_succeeded':
      if (amount === null || invoices === null) return stored;
      return {
        title: t('payment.succeeded.title'),
        message: t('payment.succeeded.message', { amount: euros(amount), invoices }),
      };
    case 'payment_failed':
      if (amount === null) return stored;
      return {
        title: t('payment.failed.title'),
        message: t('payment.failed.message', { amount: euros(amount) }),
      };
    case 'payment_overpaid': {
      if (amount === null || refund === null || invoices === null) return stored;
      const manual = params.refund === 'manual';
      const whole = refund >= amount;
      const values = { amount: euros(amount), refund: euros(refund), invoices };
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
    case 'payment_refunded':
      if (refund === null || invoices === null) return stored;
      return {
        title: t('payment.refunded.title'),
        message: t('payment.refunded.message', { refund: euros(refund), invoices }),
      };
    default:
      return stored;
  }
}
