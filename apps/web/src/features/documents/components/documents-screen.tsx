import { useEffect, useState } from 'react';
import { maxDocumentYears } from '@portal/contract/document-limits';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { DateRangeFields } from '@/components/ui/date-range-fields';
import { DownloadButton } from '@/components/ui/download-button';
import { DocumentIcon } from '@/components/ui/icons';
import { ListState } from '@/components/ui/list-state';
import { Page } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, pageTitleClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { ApiError } from '@/lib/api-client';
import {
  addYears,
  apiDateToInput,
  type ApiDateRange,
  checkInputRange,
  dayOf,
  formatApiDate,
  formatDate,
} from '@/lib/dates';
import { getLanguage } from '@/lib/i18n';
import { formatAmount } from '@/lib/money';
import { useTranslation } from '@/lib/use-translation';
import { cn } from '@/utils/cn';
import {
  useDownloadPeriodZip,
  useDownloadReceipt,
  useDownloadStatement,
} from '../api/download-documents';
import { useReceipts } from '../api/get-receipts';

type Preset = 'thisYear' | 'lastYear' | 'last12' | 'last5';
const presets: Preset[] = ['thisYear', 'lastYear', 'last12', 'last5'];

/** The period of a quick choice, as the API speaks it (today: the browser's calendar day). */
export function presetRange(preset: Preset, now: Date = new Date()): ApiDateRange {
  const today = dayOf(now);
  const end = formatApiDate(today);
  switch (preset) {
    case 'thisYear':
      return { datefrom: formatApiDate({ year: today.year, month: 1, day: 1 }), dateto: end };
    case 'lastYear':
      return {
        datefrom: formatApiDate({ year: today.year - 1, month: 1, day: 1 }),
        dateto: formatApiDate({ year: today.year - 1, month: 12, day: 31 }),
      };
    case 'last12':
      return { datefrom: formatApiDate(addYears(today, -1)), dateto: end };
    case 'last5':
      return { datefrom: formatApiDate(addYears(today, -5)), dateto: end };
  }
}

/** The five years the server allows (contract `maxDocumentYears`), checked before asking. */
function isWithinFiveYears(range: ApiDateRange): boolean {
  const from = {
    year: Number(range.datefrom.slice(0, 4)),
    month: Number(range.datefrom.slice(4, 6)),
    day: Number(range.datefrom.slice(6, 8)),
  };
  return range.dateto <= formatApiDate(addYears(from, maxDocumentYears));
}

const fieldErrorOf = (error: unknown, field: string): string | undefined =>
  error instanceof ApiError ? error.errors?.[field]?.[0] : undefined;

/**
 * "Recibos y extractos" (issue 23, item 3): a period (quick choices or the app's date fields) with
 * the statement as PDF or CSV and the period's invoices as one ZIP; below, a receipt for each
 * completed payment, by card or Bizum (the one a receipt e-mail points at, `?recibo=`, stands out).
 */
export function DocumentsScreen() {
  const { t } = useTranslation('invoices');
  const language = getLanguage();
  const initial = presetRange('thisYear');
  const [value, setValue] = useState({
    from: apiDateToInput(initial.datefrom),
    to: apiDateToInput(initial.dateto),
  });
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});
  const pdf = useDownloadStatement('pdf', language);
  const csv = useDownloadStatement('csv', language);
  const zip = useDownloadPeriodZip(language);

  /** The range typed, or null with the fields' errors shown. */
  const checked = (): ApiDateRange | null => {
    const check = checkInputRange(value.from, value.to);
    if (!check.ok) {
      setErrors({
        ...(check.errors.from ? { from: t(`common.${check.errors.from}`) } : {}),
        ...(check.errors.to ? { to: t(`common.${check.errors.to}`) } : {}),
      });
      return null;
    }
    if (!isWithinFiveYears(check.range)) {
      setErrors({ to: t('documents.period.tooLong') });
      return null;
    }
    setErrors({});
    return check.range;
  };
  const run = (download: (range: ApiDateRange) => void) => {
    const range = checked();
    if (range) download(range);
  };
  const zipProblem = fieldErrorOf(zip.error, 'dateto');

  return (
    <Page width="wide">
      <h1 className={pageTitleClasses}>{t('documents.title')}</h1>
      <p className="mt-2 max-w-prose text-gray-700 dark:text-gray-300">{t('documents.intro')}</p>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="documents-period" className={cn(cardClasses, 'p-4 sm:p-6')}>
          <h2 id="documents-period" className={sectionTitleClasses}>
            {t('documents.statement.title')}
          </h2>
          <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
            {t('documents.statement.text')}
          </p>
          <div
            role="group"
            aria-label={t('documents.period.presets')}
            className="mt-4 flex flex-wrap gap-2"
          >
            {presets.map((preset) => (
              <Button
                key={preset}
                variant="secondary"
                className="min-h-9 px-3 py-1"
                onClick={() => {
                  const range = presetRange(preset);
                  setErrors({});
                  setValue({
                    from: apiDateToInput(range.datefrom),
                    to: apiDateToInput(range.dateto),
                  });
                }}
              >
                {t(`documents.period.${preset}`)}
              </Button>
            ))}
          </div>
          <DateRangeFields
            className="mt-4"
            value={value}
            onChange={(next) => {
              setValue(next);
              setErrors({});
            }}
            labels={{
              legend: t('documents.period.legend'),
              from: t('documents.period.from'),
              to: t('documents.period.to'),
            }}
            errors={errors}
          />
          <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <DownloadButton
              variant="primary"
              onDownload={() => run((range) => pdf.mutate(range))}
              isPending={pdf.isPending}
              isError={pdf.isError}
              errorText={t('documents.statement.error')}
            >
              {t('documents.statement.pdf')}
            </DownloadButton>
            <DownloadButton
              onDownload={() => run((range) => csv.mutate(range))}
              isPending={csv.isPending}
              isError={csv.isError}
              errorText={t('documents.statement.error')}
            >
              {t('documents.statement.csv')}
            </DownloadButton>
          </div>
          <p className="mt-3 text-xs text-gray-600 dark:text-gray-400">
            {t('documents.statement.csvNote')}
          </p>
          <div className="mt-6 border-t border-gray-200 pt-5 dark:border-gray-700">
            <h3 className="font-semibold text-gray-900 dark:text-gray-50">
              {t('documents.zip.title')}
            </h3>
            <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
              {t('documents.zip.text')}
            </p>
            <DownloadButton
              className="mt-3"
              onDownload={() => run((range) => zip.mutate(range))}
              isPending={zip.isPending}
              isError={zip.isError}
              errorText={
                zipProblem === 'too_big'
                  ? t('documents.zip.tooMany')
                  : zipProblem === 'no_invoices'
                    ? t('documents.zip.none')
                    : t('documents.zip.error')
              }
            >
              {t('documents.zip.download')}
            </DownloadButton>
          </div>
        </section>
        <Receipts />
      </div>
    </Page>
  );
}

function Receipts() {
  const { t } = useTranslation('invoices');
  const query = useReceipts();
  const [search] = useSearchParams();
  const highlighted = search.get('recibo');
  const receipts = query.data ?? [];
  const isListed = Boolean(highlighted && query.data?.some((r) => r.payment_id === highlighted));
  useEffect(() => {
    if (isListed && highlighted) {
      document.getElementById(`receipt-${highlighted}`)?.scrollIntoView({ block: 'center' });
    }
  }, [highlighted, isListed]);
  return (
    <section
      aria-labelledby="documents-receipts"
      className={cn(cardClasses, 'p-4 sm:p-6 lg:self-start')}
    >
      <h2 id="documents-receipts" className={sectionTitleClasses}>
        {t('documents.receipts.title')}
      </h2>
      <p className="mt-1 mb-4 text-sm text-gray-700 dark:text-gray-300">
        {t('documents.receipts.text')}
      </p>
      <ListState
        query={query}
        isEmpty={receipts.length === 0}
        skeleton={
          <div className="space-y-3">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-16 w-full" />
            ))}
          </div>
        }
        empty={{ icon: DocumentIcon, title: t('documents.receipts.empty'), hint: '' }}
        texts={{
          loading: t('common.loading'),
          loadError: t('documents.receipts.loadError'),
          retry: t('common.retry'),
        }}
      >
        <ul className="divide-y divide-gray-200 dark:divide-gray-700">
          {receipts.map((receipt) => (
            <ReceiptRow
              key={receipt.payment_id}
              receipt={receipt}
              isHighlighted={receipt.payment_id === highlighted}
            />
          ))}
        </ul>
      </ListState>
    </section>
  );
}

function ReceiptRow({
  receipt,
  isHighlighted,
}: {
  receipt: {
    payment_id: string;
    order_id: string;
    date: string;
    amount: number;
    invoices: string[];
  };
  isHighlighted: boolean;
}) {
  const { t } = useTranslation('invoices');
  const download = useDownloadReceipt(receipt, getLanguage());
  return (
    <li
      id={`receipt-${receipt.payment_id}`}
      aria-current={isHighlighted ? 'true' : undefined}
      className={cn(
        'flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between',
        isHighlighted &&
          '-mx-3 rounded-xl bg-gray-50 px-3 dark:bg-gray-900/60 ring-2 ring-primary-ink',
      )}
    >
      <div className="min-w-0 text-sm">
        <p className="font-semibold text-gray-900 tabular-nums dark:text-gray-50">
          {formatAmount(receipt.amount)} · {formatDate(receipt.date)}
        </p>
        <p className="text-gray-700 dark:text-gray-300">
          {t('documents.receipts.order', { order: receipt.order_id })}
        </p>
        <p className="break-words text-gray-600 dark:text-gray-400">
          {t('documents.receipts.invoices', { ids: receipt.invoices.join(', ') })}
        </p>
        {isHighlighted && (
          <p className="font-semibold text-gray-900 dark:text-gray-50">
            {t('documents.receipts.fromMail')}
          </p>
        )}
      </div>
      <DownloadButton
        onDownload={() => download.mutate()}
        isPending={download.isPending}
        isError={download.isError}
        errorText={t('documents.receipts.error')}
        ariaLabel={t('documents.receipts.downloadLabel', { order: receipt.order_id })}
      >
        {t('documents.receipts.download')}
      </DownloadButton>
    </li>
  );
}
