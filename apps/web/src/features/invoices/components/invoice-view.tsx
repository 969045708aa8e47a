import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { CompanyLogo } from '@/components/ui/company-logo';
import { ChevronLeftIcon, ChevronRightIcon } from '@/components/ui/icons';
import { invoiceStatusTones, StatusBadge } from '@/components/ui/status-badge';
import { cardClasses, pageClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { formatDate } from '@/lib/dates';
import { invoiceStatusLabel, isPayableInvoice } from '@/lib/invoice-status';
import { formatAmount } from '@/lib/money';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import type { InvoiceDetail } from '../api/get-invoice';
import { useRelatedInvoices } from '../api/get-related-invoices';
import { InvoiceInstalments } from './invoice-instalments';
import { InvoiceLines } from './invoice-lines';
import { InvoiceOptions } from './invoice-options';

/**
 * One invoice (spec §2 "Invoice detail"): number, date and customer once in the heading, the
 * status the server computed, amounts with the VAT, lines, instalments, the options, and the
 * previous/next invoice at the end (the header's back link is the one way back). Dates read
 * dd/mm/yyyy like every other screen. Printing shows the invoice only: the app's chrome, the
 * navigation and the options carry `print:hidden`, and a print-only heading names the company.
 */
export function InvoiceView({ invoice, aside }: { invoice: InvoiceDetail; aside?: ReactNode }) {
  const { t } = useTranslation('invoices');
  const status = invoiceStatusLabel(invoice.state);
  // What there is to pay, a returned debit's charged fee included: the server's `to_pay`, the
  // amount the list, the PDF's "Pendiente de pago" and "Pagar" say (`pending` leaves the fee out).
  const isPayable = isPayableInvoice({ state: invoice.state, amount: invoice.to_pay });
  const date = formatDate(invoice.invoice_date) ?? t('common.noDate');

  return (
    <article
      aria-labelledby="invoice-title"
      className={cn(pageClasses, 'print:max-w-none print:p-0 print:text-black')}
    >
      <PrintHeading />

      <header className="flex flex-wrap items-start justify-between gap-3 print:mt-6">
        <div className="min-w-0">
          <h1
            id="invoice-title"
            className="text-2xl font-bold break-words text-gray-900 sm:text-3xl dark:text-gray-50"
          >
            {t('invoiceDetail.title', { id: invoice.invoice_id })}
          </h1>
          <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-gray-700 dark:text-gray-300">
            <div className="flex gap-1">
              <dt className="sr-only">{t('invoiceDetail.date')}</dt>
              <dd>{date}</dd>
            </div>
            <div className="flex min-w-0 gap-1">
              <dt>{t('invoiceDetail.customer')}:</dt>
              <dd className="font-medium break-words text-gray-900 dark:text-gray-100">
                {invoice.customer_name}
              </dd>
            </div>
          </dl>
        </div>
        <StatusBadge tone={invoiceStatusTones[status]} className="text-sm">
          {t(`invoiceStatus.${status}`)}
        </StatusBadge>
      </header>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] print:block print:space-y-6">
        <div className="min-w-0 space-y-6">
          <InvoiceLines lines={invoice.lines} />
          <InvoiceInstalments instalments={invoice.payments} />
        </div>

        {/* On a phone the total and the pay button come first, before the lines. */}
        <div className="order-first space-y-6 lg:order-none">
          <section aria-labelledby="invoice-amounts" className={cn(cardClasses, 'p-4 sm:p-5')}>
            <h2 id="invoice-amounts" className={sectionTitleClasses}>
              {t('invoiceDetail.amounts')}
            </h2>
            <dl className="mt-3 space-y-2 text-sm">
              <Amount label={t('invoiceDetail.base')} value={invoice.base} />
              <Amount label={t('invoiceDetail.vat')} value={invoice.iva} />
              <Amount label={t('invoiceDetail.total')} value={invoice.total} strong />
              {invoice.to_pay > 0 && (
                <Amount label={t('invoiceDetail.pending')} value={invoice.to_pay} />
              )}
            </dl>
          </section>
          <InvoiceOptions
            invoiceId={invoice.invoice_id}
            amountToPay={isPayable ? invoice.to_pay : null}
          />
          {aside}
        </div>
      </div>

      <RelatedNavigation invoiceId={invoice.invoice_id} />
    </article>
  );
}

function Amount({ label, value, strong }: { label: string; value: number; strong?: boolean }) {
  return (
    <div
      className={cn(
        'flex items-baseline justify-between gap-4',
        strong &&
          'border-t border-gray-200 pt-2 text-base font-bold dark:border-gray-700 print:border-gray-400',
      )}
    >
      <dt className="text-gray-700 dark:text-gray-300 print:text-gray-800">{label}</dt>
      <dd className="font-semibold text-gray-900 tabular-nums dark:text-gray-50">
        {formatAmount(value)}
      </dd>
    </div>
  );
}

/** On paper the app's header is gone: the company heads the invoice instead. */
function PrintHeading() {
  const { logoUrl, companyName } = useVisualConfig();
  return (
    <div className="hidden items-center gap-3 border-b border-gray-300 pb-4 print:flex">
      <CompanyLogo src={logoUrl} className="size-12 rounded-lg" />
      <p className="text-lg font-bold">{companyName}</p>
    </div>
  );
}

const navLink =
  'inline-flex min-h-11 items-center gap-1 rounded-xl px-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink';

/** Spec §2: previous and next invoice (spec §7 "/invoices/related"); disabled at the ends. */
function RelatedNavigation({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation('invoices');
  const related = useRelatedInvoices(invoiceId);
  const previous = related.data?.previous_invoice_id ?? null;
  const next = related.data?.next_invoice_id ?? null;
  const enabled = 'text-primary-ink hover:bg-gray-100 dark:hover:bg-gray-800';
  // Visibly off at the ends: lighter, no hover, not a link.
  const disabled = 'cursor-not-allowed text-gray-400 dark:text-gray-500';
  return (
    <nav
      aria-label={t('invoiceDetail.navigation')}
      className="mt-8 flex items-center justify-between gap-2 border-t border-gray-200 pt-4 dark:border-gray-700 print:hidden"
    >
      {previous ? (
        <Link to={paths.invoiceDetail.href(previous)} className={cn(navLink, enabled)}>
          <ChevronLeftIcon className="size-5" />
          {t('invoiceDetail.previous')}
        </Link>
      ) : (
        <span aria-disabled="true" className={cn(navLink, disabled)}>
          <ChevronLeftIcon className="size-5" />
          {t('invoiceDetail.previous')}
        </span>
      )}
      {next ? (
        <Link to={paths.invoiceDetail.href(next)} className={cn(navLink, enabled)}>
          {t('invoiceDetail.next')}
          <ChevronRightIcon className="size-5" />
        </Link>
      ) : (
        <span aria-disabled="true" className={cn(navLink, disabled)}>
          {t('invoiceDetail.next')}
          <ChevronRightIcon className="size-5" />
        </span>
      )}
    </nav>
  );
}
