import type { ButtonHTMLAttributes } from 'react';
import { cn } from '@/utils/cn';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost';

/**
 * The focus ring is the primary ink, 2 px, 2 px away from the button (review #3): on a filled
 * button it reads against the page, not against the button's own colour.
 */
const base =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-4 py-2 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink disabled:cursor-not-allowed disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  // Disabled: grey on grey in both themes, not the tenant's colour dimmed (dark green with grey
  // text could not be read on navy, review #25).
  primary:
    'bg-primary-fill text-on-primary shadow-sm hover:shadow-md hover:brightness-110 disabled:bg-gray-300 disabled:text-gray-700 disabled:opacity-100 disabled:shadow-none disabled:hover:brightness-100 dark:disabled:bg-gray-700 dark:disabled:text-gray-200',
  secondary:
    'border border-gray-300 bg-white text-gray-900 hover:bg-gray-50 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:hover:bg-gray-700',
  ghost: 'text-primary-ink hover:bg-gray-100 dark:hover:bg-gray-800',
};

/**
 * The base's utilities a caller may set otherwise (a larger text, a taller button): Tailwind's
 * stylesheet orders utilities by itself, not by the class attribute, so `text-sm text-base` came
 * out as `text-sm` on every button asked to be `text-base`. A caller's utility of one of these
 * kinds (without a breakpoint or state prefix) replaces the base's.
 */
const overridable = [
  /^text-(xs|sm|base|lg|\d?xl)$/,
  /^min-h-/,
  /^px-/,
  /^py-/,
  /^gap-/,
  /^rounded(-|$)/,
];

/** Classes of a button, also for links that look like one. */
export function buttonClasses(variant: ButtonVariant = 'primary', className?: string): string {
  const own = className?.split(/\s+/).filter(Boolean) ?? [];
  const kept = base
    .split(' ')
    .filter((c) => !overridable.some((kind) => kind.test(c) && own.some((o) => kind.test(o))));
  return cn(kept.join(' '), variants[variant], className);
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant };

export function Button({ variant = 'primary', className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClasses(variant, className)} {...props} />;
}
