import type { ReactNode } from 'react';
import { cn } from '@/utils/cn';

type SwitchProps = {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  icon?: ReactNode;
  className?: string;
};

/** An on/off control announced as a switch; the whole row is the target. */
export function Switch({ checked, onChange, label, icon, className }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      onClick={() => onChange(!checked)}
      className={cn(
        'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm hover:bg-gray-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink dark:hover:bg-gray-700',
        className,
      )}
    >
      {icon}
      <span className="flex-1">{label}</span>
      <span
        aria-hidden="true"
        className={cn(
          'relative inline-flex h-6 w-10 shrink-0 items-center rounded-full border-2 transition-colors',
          checked
            ? 'border-primary-fill bg-primary-fill'
            : 'border-gray-500 bg-gray-200 dark:border-gray-400 dark:bg-gray-600',
        )}
      >
        <span
          className={cn(
            'inline-block size-4 rounded-full shadow transition-transform motion-reduce:transition-none',
            checked ? 'translate-x-4.5 bg-on-primary' : 'translate-x-0.5 bg-white',
          )}
        />
      </span>
    </button>
  );
}
