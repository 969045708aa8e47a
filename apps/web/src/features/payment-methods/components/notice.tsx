import type { ReactNode } from 'react';
import { AlertIcon, InfoIcon } from '@/components/ui/icons';
import { cn } from '@/utils/cn';
import { CheckIcon } from './method-icons';

export type NoticeTone = 'success' | 'error' | 'info' | 'warning';

const tones: Record<NoticeTone, string> = {
  success:
    'bg-green-50 text-green-900 ring-green-200 dark:bg-green-950/40 dark:text-green-100 dark:ring-green-800',
  error:
    'bg-red-50 text-red-900 ring-red-200 dark:bg-red-950/40 dark:text-red-100 dark:ring-red-800',
  info: 'bg-sky-50 text-sky-950 ring-sky-200 dark:bg-sky-950/40 dark:text-sky-100 dark:ring-sky-800',
  warning:
    'bg-amber-50 text-amber-950 ring-amber-200 dark:bg-amber-950/40 dark:text-amber-100 dark:ring-amber-800',
};

const icons = { success: CheckIcon, error: AlertIcon, info: InfoIcon, warning: AlertIcon };

/**
 * A message in a tinted box: an error is an alert (read out at once), the others are read out
 * politely when `live`.
 */
export function Notice({
  tone,
  title,
  children,
  live = false,
  className,
  action,
}: {
  tone: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  live?: boolean;
  className?: string;
  action?: ReactNode;
}) {
  const Icon = icons[tone];
  const role = tone === 'error' ? 'alert' : live ? 'status' : undefined;
  return (
    <div
      role={role}
      className={cn('flex gap-3 rounded-xl p-4 text-sm ring-1', tones[tone], className)}
    >
      <Icon className="size-5 shrink-0" />
      <div className="min-w-0 flex-1">
        {title && <p className="font-semibold">{title}</p>}
        {children && <div className={cn(title ? 'mt-1' : undefined)}>{children}</div>}
      </div>
      {action}
    </div>
  );
}
