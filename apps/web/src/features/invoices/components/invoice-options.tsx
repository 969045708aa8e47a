import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { CardIcon, DownloadIcon, PrintIcon, ShareIcon } from '@/components/ui/icons';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { getLanguage } from '@/lib/i18n';
import type { InvoiceStatus } from '@/lib/invoice-status';
import { formatAmount } from '@/lib/money';
import { invoiceCheckinHref } from '@/lib/payment-checkin';
import { cn } from '@/utils/cn';
import { useDownloadInvoicePdf } from '../api/get-invoice-pdf';

type InvoiceOptionsProps = {
  invoiceId: string;
  status: InvoiceStatus;
  isPayable: boolean;
  amountToPay: number;
};

/**
 * Spec §2 "Invoice detail" options: download (the PDF in the interface language), print, pay
 * (disabled with the paid label when not payable, spec §4) and share (disabled).
 */
export function InvoiceOptions({ invoiceId, status, isPayable, amountToPay }: InvoiceOptionsProps) {
  const { t } = useTranslation('invoices');
  const download = useDownloadInvoicePdf(invoiceId, getLanguage());

  return (
    <section
      aria-labelledby="invoice-options"
      className={cn(cardClasses, 'p-4 sm:p-5 print:hidden')}
    >
      <h2 id="invoice-options" className={sectionTitleClasses}>
        {t('invoiceDetail.options.title')}
      </h2>
      <div className="mt-3 grid gap-2">
        {isPayable ? (
          <Link
            to={invoiceCheckinHref(invoiceId, amountToPay)}
            className={buttonClasses('primary')}
          >
            <CardIcon className="size-5" />
            {t('invoiceDetail.options.pay', { amount: formatAmount(amountToPay) })}
          </Link>
        ) : (
          <Button disabled>
            <CardIcon className="size-5" />
            {status === 'cancelled'
              ? t('invoiceDetail.options.cancelled')
              : t('invoiceDetail.options.paid')}
          </Button>
        )}
        <Button
          variant="secondary"
          onClick={() => download.mutate()}
          disabled={download.isPending}
          aria-describedby={download.isError ? 'invoice-download-error' : undefined}
        >
          {download.isPending ? (
            <span
              aria-hidden="true"
              className="size-5 animate-spin rounded-full border-2 border-gray-300 border-t-gray-700 motion-reduce:animate-[spin_3s_linear_infinite] dark:border-gray-600 dark:border-t-gray-200"
            />
          ) : (
            <DownloadIcon className="size-5" />
          )}
          {download.isPending
            ? t('invoiceDetail.options.downloading')
            : t('invoiceDetail.options.download')}
        </Button>
        <Button variant="secondary" onClick={() => window.print()}>
          <PrintIcon className="size-5" />
          {t('invoiceDetail.options.print')}
        </Button>
        <Button variant="secondary" disabled aria-describedby="invoice-share-soon">
          <ShareIcon className="size-5" />
          {t('invoiceDetail.options.share')}
          <span id="invoice-share-soon" className="text-xs font-normal">
            ({t('common.comingSoon')})
          </span>
        </Button>
      </div>
      {download.isError && (
        <p
          id="invoice-download-error"
          role="alert"
          className="mt-3 text-sm font-medium text-red-700 dark:text-red-300"
        >
          {t('invoiceDetail.options.downloadError')}
        </p>
      )}
    </section>
  );
}
