import { lazy, type ReactNode, Suspense } from 'react';

/** Radix's dialog and its focus and scroll code come with the first dialog opened, never before. */
const DialogContent = lazy(() => import('./dialog-content'));

type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
};

/**
 * A modal dialog at most 320 px wide (spec §9): labelled by its title, Escape and the backdrop
 * close it, focus stays inside while open and returns to the opener after (Radix, decision 019).
 */
export function Dialog({ open, onClose, title, children }: DialogProps) {
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <DialogContent onClose={onClose} title={title}>
        {children}
      </DialogContent>
    </Suspense>
  );
}
