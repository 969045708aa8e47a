import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useNotificationsT } from '../use-notifications-t';
import { dangerButtonClasses } from './danger-button';
import { TrashIcon } from './notification-icons';

/** Deleting several asks first: it cannot be undone. `ids` null: closed. */
export function ConfirmDeleteDialog({
  ids,
  onConfirm,
  onClose,
}: {
  ids: string[] | null;
  onConfirm: (ids: string[]) => void;
  onClose: () => void;
}) {
  const { t } = useNotificationsT();
  return (
    <Dialog
      open={ids !== null}
      onClose={onClose}
      title={t('confirmDelete.title', { count: ids?.length ?? 0 })}
    >
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('confirmDelete.description')}</p>
      <div className="mt-5 grid gap-2">
        <button
          type="button"
          className={dangerButtonClasses}
          onClick={() => {
            if (ids) onConfirm(ids);
            onClose();
          }}
        >
          <TrashIcon className="size-4" />
          {t('confirmDelete.confirm')}
        </button>
        <Button variant="secondary" data-autofocus onClick={onClose}>
          {t('confirmDelete.cancel')}
        </Button>
      </div>
    </Dialog>
  );
}
