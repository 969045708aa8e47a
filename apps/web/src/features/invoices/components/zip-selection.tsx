import { maxZipInvoices } from '@portal/contract/document-limits';
import { Button } from '@/components/ui/button';
import { DownloadButton } from '@/components/ui/download-button';
import { cardClasses } from '@/components/ui/surfaces';
import { getLanguage } from '@/lib/i18n';
import { useTranslation } from '@/lib/use-translation';
import { cn } from '@/utils/cn';
import { useDownloadInvoicesZip } from '../api/download-invoices-zip';

/** The select-to-download mode of the invoice list: which invoices are chosen. */
export type ZipSelection = {
  isSelected: (id: string) => boolean;
  toggle: (id: string, on: boolean) => void;
};

/** The checkbox of a row or card in select-to-download mode. */
export function ZipCheckbox({
  invoiceId,
  selection,
}: {
  invoiceId: string;
  selection: ZipSelection;
}) {
  const { t } = useTranslation('invoices');
  return (
    <input
      type="checkbox"
      checked={selection.isSelected(invoiceId)}
      onChange={(event) => selection.toggle(invoiceId, event.target.checked)}
      aria-label={t('zipSelection.select', { id: invoiceId })}
      className="relative z-10 size-5 shrink-0 cursor-pointer accent-primary-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink"
    />
  );
}

/**
 * The bar of the select-to-download mode: how many are chosen (a polite live region) and the ZIP
 * download, with its loading and error states. Fixed above the bottom bar, like the payments'.
 */
export function ZipSelectionBar({ ids, onCancel }: { ids: string[]; onCancel: () => void }) {
  const { t } = useTranslation('invoices');
  const download = useDownloadInvoicesZip(getLanguage());
  const tooMany = ids.length > maxZipInvoices;
  return (
    <div className="fixed inset-x-0 bottom-20 z-20 px-4 md:bottom-4 print:hidden">
      <div
        className={cn(
          cardClasses,
          'mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-3 p-4 shadow-lg ring-2 ring-primary-ink',
        )}
      >
        <p
          aria-live="polite"
          aria-atomic="true"
          className="text-sm text-gray-900 dark:text-gray-100"
        >
          <span className="block font-semibold">
            {t('zipSelection.selected', { count: ids.length })}
          </span>
          <span
            className={cn(
              'block',
              tooMany ? 'text-red-700 dark:text-red-300' : 'text-gray-600 dark:text-gray-400',
            )}
          >
            {tooMany ? t('zipSelection.tooMany') : t('zipSelection.max')}
          </span>
        </p>
        <div className="flex flex-wrap items-start gap-2">
          <Button variant="ghost" onClick={onCancel}>
            {t('zipSelection.cancel')}
          </Button>
          <DownloadButton
            variant="primary"
            disabled={ids.length === 0 || tooMany}
            onDownload={() => download.mutate(ids)}
            isPending={download.isPending}
            isError={download.isError}
            errorText={t('zipSelection.error')}
          >
            {t('zipSelection.download')}
          </DownloadButton>
        </div>
      </div>
    </div>
  );
}
