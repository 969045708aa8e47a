import type { HTMLAttributes } from 'react';
import { cn } from '@/utils/cn';
import { pageClasses } from './surfaces';

/**
 * One content width per kind of page (review #23: six widths, so the left edge moved between
 * screens). Every page starts at the header's start edge; only the column's end differs.
 */
const widths = {
  /** Lists, dashboards, an invoice, the payment methods: as wide as the header. */
  wide: '',
  /** A form, one method, a flow step, a feed to read: a readable column. */
  form: 'max-w-2xl',
  /** A lone message (not found, a failure): centred. */
  message: 'mx-auto max-w-md',
};

export type PageWidth = keyof typeof widths;

/** The column classes of a page kind, for a screen that lays out its own frame. */
export const pageWidthClasses = (width: PageWidth): string => widths[width];

/**
 * The frame of a screen: the app's page frame (`pageClasses`, as wide as the header) with the
 * page kind's column inside. Two boxes, because one cannot carry two `max-w-*` classes reliably.
 */
export function Page({
  width,
  className,
  children,
  ...props
}: HTMLAttributes<HTMLDivElement> & { width: PageWidth }) {
  return (
    <div className={pageClasses} {...props}>
      <div className={cn('min-w-0', widths[width], className)}>{children}</div>
    </div>
  );
}
