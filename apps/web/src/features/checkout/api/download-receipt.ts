import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download-file';
import { getReceiptUrl, receiptFileName } from '@/lib/documents';
import type { Language } from '@/lib/i18n';

/** The receipt PDF of a completed payment: a fresh five-minute link, then the download. */
export function useDownloadReceipt(
  payment: { payment_id: string; order_id: string },
  language: Language,
) {
  return useMutation({
    mutationFn: () => getReceiptUrl(payment.payment_id, language),
    onSuccess: (url) => downloadFile(url, receiptFileName(payment.order_id)),
  });
}
