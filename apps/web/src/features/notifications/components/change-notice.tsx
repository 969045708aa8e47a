import { AlertIcon } from '@/components/ui/icons';
import { CheckIcon } from './notification-icons';

/** What the last change did, or why it failed; announced, and shown above the list. */
export type Notice = { kind: 'done' | 'error'; text: string };

export function ChangeNotice({ notice }: { notice: Notice | null }) {
  return (
    <>
      <div role="status" aria-live="polite" className="empty:hidden">
        {notice?.kind === 'done' && (
          <p className="mt-4 flex items-center gap-2 rounded-xl bg-green-50 p-3 text-sm text-green-900 ring-1 ring-green-200 dark:bg-green-950/40 dark:text-green-100 dark:ring-green-900">
            <CheckIcon className="size-5 shrink-0" />
            {notice.text}
          </p>
        )}
      </div>
      {notice?.kind === 'error' && (
        <p
          role="alert"
          className="mt-4 flex items-center gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200 dark:bg-red-950/50 dark:text-red-100 dark:ring-red-900"
        >
          <AlertIcon className="size-5 shrink-0" />
          {notice.text}
        </p>
      )}
    </>
  );
}
