import { DownloadButton } from '@/components/ui/download-button';
import { useTranslation } from '@/lib/use-translation';
import { cn } from '@/utils/cn';
import { useDownloadPaymentReceipt } from '../api/download-receipt';

/**
 * A paid row's "Justificante": the receipt of the portal payment that paid it. Only rows with a
 * `receipt_id` have one (an instalment paid by direct debit or at the desk has none). Above a
 * card's stretched link (`relative z-10`), so it is its own tap target.
 */
export function ReceiptButton({
  receiptId,
  invoiceId,
  className,
}: {
  receiptId: string;
  invoiceId: string;
  className?: string;
}) {
  const { t } = useTranslation('invoices');
  const download = useDownloadPaymentReceipt(receiptId, invoiceId);
  return (
    <DownloadButton
      onDownload={() => download.mutate()}
      isPending={download.isPending}
      isError={download.isError}
      errorText={t('payments.receiptError', { invoice: invoiceId })}
      ariaLabel={t('payments.receiptLabel', { invoice: invoiceId })}
      className={cn('relative z-10', className)}
    >
      {t('payments.receipt')}
    </DownloadButton>
  );
}
