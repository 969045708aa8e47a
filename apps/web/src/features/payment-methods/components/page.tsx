import type { HTMLAttributes } from 'react';
import { pageClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';

const widths = {
  /** A form or one method: a readable column, aligned with the header's start. */
  form: 'max-w-2xl',
  /** A lone message (not found, a failure): centred. */
  message: 'mx-auto max-w-md',
  /** The list and the transfer data. */
  wide: 'max-w-5xl',
};

/**
 * The frame of these screens: the app's page frame (`pageClasses`, as wide as the header) with a
 * narrower column inside. Two boxes, because one cannot carry two `max-w-*` classes reliably.
 */
export function Page({
  width,
  className,
  children,
  ...props
}: HTMLAttributes<HTMLDivElement> & { width: keyof typeof widths }) {
  return (
    <div className={pageClasses} {...props}>
      <div className={cn(widths[width], className)}>{children}</div>
    </div>
  );
}
