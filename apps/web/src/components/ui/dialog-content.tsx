import * as RadixDialog from '@radix-ui/react-dialog';
import { type ReactNode, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { CloseIcon } from './icons';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

type DialogContentProps = {
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
};

/**
 * The open dialog, on Radix's (decision 019): focus moved inside and kept there, Escape and the
 * backdrop close it, the page behind is hidden from screen readers and does not scroll, focus goes
 * back to the opener. Loaded with the first dialog that opens (./dialog.tsx).
 */
export default function DialogContent({ onClose, title, children }: DialogContentProps) {
  const { t } = useTranslation();
  // Where the focus goes back on close: the element that opened the dialog (Radix gives it back to
  // its own trigger, which these dialogs, opened from menus and buttons of their own, do not use).
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-gray-950/60" />
        <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center p-4">
          <RadixDialog.Content
            // The dialog's text is read with its title; no separate description element.
            aria-describedby={undefined}
            onOpenAutoFocus={(event) => {
              // The element a dialog marks (`data-autofocus`: the calendar's day, the safe
              // button), else its first control, else the dialog itself.
              const node = event.currentTarget;
              if (!(node instanceof HTMLElement)) return;
              event.preventDefault();
              const target =
                node.querySelector<HTMLElement>('[data-autofocus]') ??
                node.querySelector<HTMLElement>(focusable) ??
                node;
              target.focus();
            }}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              if (opener?.isConnected) opener.focus();
            }}
            className="pointer-events-auto relative max-h-full w-full max-w-80 overflow-y-auto rounded-2xl bg-white p-5 text-gray-900 shadow-xl focus:outline-none dark:bg-gray-800 dark:text-gray-100"
          >
            <div className="mb-4 flex items-start justify-between gap-3">
              <RadixDialog.Title className="min-w-0 text-lg leading-7 font-semibold break-words">
                {title}
              </RadixDialog.Title>
              <RadixDialog.Close
                aria-label={t('dialog.close')}
                className="-m-2 inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-gray-600 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-primary-ink dark:text-gray-300 dark:hover:bg-gray-700"
              >
                <CloseIcon className="size-5" />
              </RadixDialog.Close>
            </div>
            {children}
          </RadixDialog.Content>
        </div>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
