import { useEffect, useId } from 'react';
import { DownloadIcon } from '@/components/ui/icons';
import { buttonClasses } from '@/components/ui/button';
import { ListState } from '@/components/ui/list-state';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusBadge, type StatusTone } from '@/components/ui/status-badge';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { getLanguage } from '@/lib/i18n';
import { cn } from '@/utils/cn';
import { useDownloadSepaMandatePdf } from '../api/get-sepa-mandate-pdf';
import { type SepaMandate, useSepaMandates } from '../api/get-sepa-mandates';
import { usePaymentMethodsTexts } from '../texts';
import { BankIcon } from '@/components/ui/icons';
import { formatCreatedAt } from './method-view';

const statusTones: Record<SepaMandate['status'], StatusTone> = {
  active: 'success',
  replaced: 'neutral',
  revoked: 'danger',
};

/**
 * The customer's SEPA mandates on the payment methods screen (issue 23, item 6): reference, IBAN,
 * date, state (the replaced one says by which) and its PDF. Shown only where the tenant signs
 * mandates in the portal or the customer has signed one.
 */
export function SepaMandatesSection() {
  const t = usePaymentMethodsTexts();
  const query = useSepaMandates();
  useEffect(() => {
    if (query.error) console.error('Could not load the SEPA mandates', query.error);
  }, [query.error]);
  if (query.data && !query.data.creditor && query.data.mandates.length === 0) return null;

  return (
    <section aria-labelledby="sepa-mandates" className="mt-8">
      <h2 id="sepa-mandates" className={sectionTitleClasses}>
        {t('mandate.listTitle')}
      </h2>
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">{t('mandate.listIntro')}</p>
      <div className="mt-3">
        <ListState
          query={query}
          isEmpty={query.data?.mandates.length === 0}
          skeleton={
            <ul className="grid gap-3 md:grid-cols-2">
              <li className={cn(cardClasses, 'space-y-2 p-4')}>
                <Skeleton className="h-5 w-48" />
                <Skeleton className="h-4 w-56" />
                <Skeleton className="h-5 w-20 rounded-full" />
              </li>
            </ul>
          }
          empty={{
            icon: BankIcon,
            title: t('mandate.listEmpty'),
            hint: t('mandate.listEmptyHint'),
          }}
          texts={{
            loading: t('common.loading'),
            loadError: t('mandate.listLoadError'),
            retry: t('common.retry'),
          }}
        >
          <ul aria-labelledby="sepa-mandates" className="grid gap-3 md:grid-cols-2">
            {query.data?.mandates.map((mandate) => (
              <li key={mandate.id} className="min-w-0">
                <MandateItem mandate={mandate} />
              </li>
            ))}
          </ul>
        </ListState>
      </div>
    </section>
  );
}

function MandateItem({ mandate }: { mandate: SepaMandate }) {
  const t = usePaymentMethodsTexts();
  const download = useDownloadSepaMandatePdf(mandate);
  const errorId = useId();
  const signedOn = formatCreatedAt(mandate.signed_at);
  return (
    <article
      aria-label={mandate.reference}
      className={cn(cardClasses, 'flex h-full flex-col gap-3 p-4 sm:flex-row sm:items-start')}
    >
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-mono text-sm font-semibold break-all text-gray-900 dark:text-gray-50">
          {mandate.reference}
        </p>
        <p className="font-mono text-sm break-all text-gray-700 dark:text-gray-300">
          {mandate.iban}
        </p>
        {signedOn && (
          <p className="text-sm text-gray-700 dark:text-gray-300">
            {t('mandate.signedOn', { date: signedOn })}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2 pt-1">
          <StatusBadge tone={statusTones[mandate.status]}>
            {t(`mandate.states.${mandate.status}`)}
          </StatusBadge>
          {mandate.replaced_by_reference && (
            <span className="text-xs text-gray-600 dark:text-gray-300">
              {t('mandate.replacedBy', { reference: mandate.replaced_by_reference })}
            </span>
          )}
        </div>
      </div>
      <div className="flex flex-col items-start sm:items-end">
        <button
          type="button"
          onClick={() => download.mutate(getLanguage())}
          disabled={download.isPending}
          aria-label={t('mandate.downloadPdf', { reference: mandate.reference })}
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
          {t('mandate.pdf')}
        </button>
        {download.isError && (
          <span id={errorId} role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">
            {t('mandate.pdfError', { reference: mandate.reference })}
          </span>
        )}
      </div>
    </article>
  );
}
