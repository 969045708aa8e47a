import type { InvoiceStatus } from '@/lib/invoice-status';
import type { PaymentStatus } from '@/lib/payment-status';
import { cn } from '@/utils/cn';

/** How a status reads at a glance: settled, waiting, late, void, or not known. */
export type StatusTone = 'success' | 'warning' | 'danger' | 'neutral' | 'info';

const tones: Record<StatusTone, string> = {
  success:
    'bg-green-100 text-green-800 ring-green-600/20 dark:bg-green-900/40 dark:text-green-200 dark:ring-green-400/30',
  warning:
    'bg-amber-100 text-amber-900 ring-amber-600/20 dark:bg-amber-900/40 dark:text-amber-100 dark:ring-amber-400/30',
  danger:
    'bg-red-100 text-red-800 ring-red-600/20 dark:bg-red-900/40 dark:text-red-200 dark:ring-red-400/30',
  info: 'bg-sky-100 text-sky-900 ring-sky-600/20 dark:bg-sky-900/40 dark:text-sky-100 dark:ring-sky-400/30',
  neutral:
    'bg-gray-100 text-gray-700 ring-gray-500/20 dark:bg-gray-700 dark:text-gray-200 dark:ring-gray-400/30',
};

/** One colour per invoice status (spec §4), the same on every screen. */
export const invoiceStatusTones: Record<InvoiceStatus, StatusTone> = {
  paid: 'success',
  pending: 'warning',
  overdue: 'danger',
  cancelled: 'neutral',
  partiallyPaid: 'info',
  unknown: 'neutral',
  returned: 'danger',
  creditNote: 'info',
};

/** One colour per payment status (spec §4), the same on every screen. */
export const paymentStatusTones: Record<PaymentStatus, StatusTone> = {
  paid: 'success',
  pending: 'warning',
  overdue: 'danger',
  cancelled: 'neutral',
  returned: 'danger',
};

/** A status label in a coloured pill; the text carries the meaning, the colour only repeats it. */
export function StatusBadge({
  tone,
  children,
  className,
}: {
  tone: StatusTone;
  children: string;
  className?: string;
}) {
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset print:bg-transparent print:text-black print:ring-gray-400',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
