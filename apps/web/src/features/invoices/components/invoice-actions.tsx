import { useId } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { DownloadIcon } from '@/components/ui/icons';
import { getLanguage } from '@/lib/i18n';
import { formatAmount } from '@/lib/money';
import { invoiceCheckinHref } from '@/lib/payment-checkin';
import { cn } from '@/utils/cn';
import { useDownloadInvoicePdf } from '../api/get-invoice-pdf';
import type { InvoiceListItem } from '../api/get-invoices';

/**
 * A row's "Pagar": the checkout of this invoice for what the server says it still owes. Above a
 * card's stretched link (`relative z-10`), so it is its own tap target.
 */
export function PayInvoiceLink({
  invoice,
  className,
}: {
  invoice: Pick<InvoiceListItem, 'invoice_id' | 'amount'>;
  className?: string;
}) {
  const { t } = useTranslation('invoices');
  const amount = formatAmount(invoice.amount);
  return (
    <Link
      to={invoiceCheckinHref(invoice.invoice_id, invoice.amount)}
      aria-label={t('invoiceList.payInvoice', { id: invoice.invoice_id, amount })}
      className={buttonClasses('primary', cn('relative z-10', className))}
    >
      {t('invoiceList.pay')}
    </Link>
  );
}

/** A row's PDF download (the interface language), with its own error next to it. */
export function InvoicePdfButton({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation('invoices');
  const download = useDownloadInvoicePdf(invoiceId, getLanguage());
  const errorId = useId();
  return (
    <span className="relative z-10 inline-flex flex-col items-end">
      <button
        type="button"
        onClick={() => download.mutate()}
        disabled={download.isPending}
        aria-label={t('invoiceList.downloadPdf', { id: invoiceId })}
        aria-describedby={download.isError ? errorId : undefined}
        className={buttonClasses('secondary', 'px-3')}
      >
        {download.isPending ? (
          <span
            aria-hidden="true"
            className="size-5 animate-spin rounded-full border-2 border-gray-300 border-t-gray-700 motion-reduce:animate-[spin_3s_linear_infinite] dark:border-gray-600 dark:border-t-gray-200"
          />
        ) : (
          <DownloadIcon className="size-5" />
        )}
        {t('invoiceList.pdf')}
      </button>
      {download.isError && (
        <span id={errorId} role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">
          {t('invoiceList.pdfError', { id: invoiceId })}
        </span>
      )}
    </span>
  );
}
