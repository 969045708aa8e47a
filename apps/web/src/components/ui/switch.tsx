import * as RadixSwitch from '@radix-ui/react-switch';
import { type ReactNode, useId } from 'react';
import { cn } from '@/utils/cn';

type SwitchProps = {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  /** A line under the label, read as the switch's description. */
  description?: ReactNode;
  icon?: ReactNode;
  disabled?: boolean;
  className?: string;
};

/**
 * An on/off control announced as a switch (Radix, decision 019); the whole row is the target and
 * at least 44 px tall (review #26).
 */
export function Switch({
  checked,
  onChange,
  label,
  description,
  icon,
  disabled,
  className,
}: SwitchProps) {
  const labelId = useId();
  const descriptionId = useId();
  return (
    <RadixSwitch.Root
      checked={checked}
      onCheckedChange={onChange}
      disabled={disabled}
      aria-labelledby={labelId}
      aria-describedby={description ? descriptionId : undefined}
      className={cn(
        'group flex min-h-11 w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm hover:bg-gray-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink disabled:cursor-not-allowed disabled:opacity-70 dark:hover:bg-gray-700',
        className,
      )}
    >
      {icon}
      <span className="min-w-0 flex-1 break-words">
        <span id={labelId} className="block">
          {label}
        </span>
        {description && (
          <span
            id={descriptionId}
            className="mt-0.5 block text-sm text-gray-600 dark:text-gray-300"
          >
            {description}
          </span>
        )}
      </span>
      <span
        aria-hidden="true"
        className={cn(
          'relative inline-flex h-6 w-10 shrink-0 items-center rounded-full border-2 transition-colors',
          checked
            ? 'border-primary-fill bg-primary-fill'
            : 'border-gray-500 bg-gray-200 dark:border-gray-400 dark:bg-gray-600',
        )}
      >
        <RadixSwitch.Thumb
          className={cn(
            'inline-block size-4 rounded-full shadow transition-transform motion-reduce:transition-none',
            checked ? 'translate-x-4.5 bg-on-primary' : 'translate-x-0.5 bg-white',
          )}
        />
      </span>
    </RadixSwitch.Root>
  );
}
