import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { CardIcon, DownloadIcon, PrintIcon } from '@/components/ui/icons';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { getLanguage } from '@/lib/i18n';
import { formatAmount } from '@/lib/money';
import { invoiceCheckinHref } from '@/lib/payment-checkin';
import { cn } from '@/utils/cn';
import { useDownloadInvoicePdf } from '../api/get-invoice-pdf';
import { Spinner } from '@/components/ui/spinner';

type InvoiceOptionsProps = {
  invoiceId: string;
  /** What the server says is still owed, or null when nothing is (paid, cancelled). */
  amountToPay: number | null;
};

/**
 * Spec §2 "Invoice detail" options: pay (only when something is owed: a paid or cancelled invoice
 * says so in its status badge, not in a disabled button), download (the PDF in the interface
 * language) and print. The spec's disabled "share" is left out (no placeholders, PRODUCT.md).
 */
export function InvoiceOptions({ invoiceId, amountToPay }: InvoiceOptionsProps) {
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
        {amountToPay !== null && (
          <Link
            to={invoiceCheckinHref(invoiceId, amountToPay)}
            className={buttonClasses('primary')}
          >
            <CardIcon className="size-5" />
            {t('invoiceDetail.options.pay', { amount: formatAmount(amountToPay) })}
          </Link>
        )}
        <Button
          variant="secondary"
          onClick={() => download.mutate()}
          disabled={download.isPending}
          aria-describedby={download.isError ? 'invoice-download-error' : undefined}
        >
          {download.isPending ? <Spinner size="md" /> : <DownloadIcon className="size-5" />}
          {download.isPending
            ? t('invoiceDetail.options.downloading')
            : t('invoiceDetail.options.download')}
        </Button>
        <Button variant="secondary" onClick={() => window.print()}>
          <PrintIcon className="size-5" />
          {t('invoiceDetail.options.print')}
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
