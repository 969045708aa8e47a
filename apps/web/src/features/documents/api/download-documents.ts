import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download-file';
import {
  getInvoicesZipUrl,
  getReceiptUrl,
  getStatementUrl,
  invoicesZipFileName,
  receiptFileName,
  statementFileName,
} from '@/lib/documents';
import type { ApiDateRange } from '@/lib/dates';
import type { Language } from '@/lib/i18n';

export function useDownloadReceipt(
  payment: { payment_id: string; order_id: string },
  language: Language,
) {
  return useMutation({
    mutationFn: () => getReceiptUrl(payment.payment_id, language),
    onSuccess: (url) => downloadFile(url, receiptFileName(payment.order_id)),
  });
}

/** The statement of a period, as PDF or CSV: one mutation per format, so each has its state. */
export function useDownloadStatement(format: 'pdf' | 'csv', language: Language) {
  return useMutation({
    mutationFn: async (range: ApiDateRange) => ({
      url: await getStatementUrl(range, format, language),
      range,
    }),
    onSuccess: ({ url, range }) => downloadFile(url, statementFileName(range, format)),
  });
}

/** Every invoice of a period as one ZIP. */
export function useDownloadPeriodZip(language: Language) {
  return useMutation({
    mutationFn: (range: ApiDateRange) => getInvoicesZipUrl(range, language),
    onSuccess: (url) => downloadFile(url, invoicesZipFileName),
  });
}
