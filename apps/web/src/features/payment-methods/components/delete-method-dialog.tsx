import { useEffect, useRef } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useDeletePaymentMethod } from '../api/delete-payment-method';
import { usePaymentMethodsTexts } from '../texts';
import { deleteErrorKind } from '../utils/delete-error';
import type { PaymentMethod } from '../utils/method-display';
import { Notice } from './notice';

/** A destructive button: red in both themes, white text (AA on red-700 and red-600). */
export const dangerButtonClasses =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-red-800 dark:hover:bg-red-900 dark:focus-visible:outline-red-400';

/**
 * Spec §2: deleting asks first, in a modal (Cancel / Delete). A refusal of the API (the main
 * method, one with a pending request or in use by a payment) stays in the modal, explained.
 */
export function DeleteMethodDialog({
  method,
  name,
  open,
  onClose,
  onDeleted,
}: {
  method: PaymentMethod;
  name: string;
  open: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const t = usePaymentMethodsTexts();
  const remove = useDeletePaymentMethod();
  const { reset } = remove;
  // Each opening starts afresh: no refusal left over from the last try.
  useEffect(() => {
    if (open) reset();
  }, [open, reset]);

  const confirm = () => remove.mutate(method.id, { onSuccess: onDeleted });
  const kind = remove.isError ? deleteErrorKind(remove.error, method) : null;
  // A refusal answers the same on every try; a failure of the connection or the server may not.
  const canTry = kind === null || kind === 'network' || kind === 'generic';
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // The delete button is gone with a refusal: the focus stays in the dialog, on its way out. On
    // the next task: the dialog's focus trap first reacts to the focused button's removal.
    if (canTry) return;
    const timer = setTimeout(() => cancelRef.current?.focus());
    return () => clearTimeout(timer);
  }, [canTry]);

  return (
    <Dialog open={open} onClose={onClose} title={t('delete.title')}>
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('delete.text', { name })}</p>
      {kind && (
        <Notice tone="error" className="mt-4">
          {kind === 'network' ? t('common.network') : t(`delete.errors.${kind}`)}
        </Notice>
      )}
      <div className="mt-5 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button
          ref={cancelRef}
          type="button"
          onClick={onClose}
          className={buttonClasses('secondary')}
        >
          {canTry ? t('common.cancel') : t('common.understood')}
        </button>
        {canTry && (
          <button
            type="button"
            onClick={confirm}
            disabled={remove.isPending}
            className={dangerButtonClasses}
          >
            {remove.isPending ? t('delete.deleting') : t('delete.confirm')}
          </button>
        )}
      </div>
    </Dialog>
  );
}
