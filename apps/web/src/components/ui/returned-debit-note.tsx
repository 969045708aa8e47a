import { isKnownReturnReason, type TReturnedDebit } from '@portal/contract/returned-debits';
import { formatDate } from '@/lib/dates';
import { formatAmount } from '@/lib/money';
import { useTranslation } from '@/lib/use-translation';
import { cn } from '@/utils/cn';

/**
 * Why an instalment shows "Devuelto" (issue 23, item 4): the day the bank returned its direct
 * debit, the reason in plain words (a code this build does not know reads as a generic reason
 * with the code) and the bank's fee, said to be added when the tenant charges it. The invoice
 * detail and the payments list show it under the instalment.
 */
export function ReturnedDebitNote({
  returned,
  className,
}: {
  returned: TReturnedDebit;
  className?: string;
}) {
  const { t } = useTranslation('invoices');
  const code = returned.reason_code;
  const reason = isKnownReturnReason(code)
    ? t(`returnedDebit.reasons.${code}`)
    : t('returnedDebit.otherReason', { code });
  const date = formatDate(returned.return_date);
  return (
    <div
      className={cn('text-sm text-red-800 dark:text-red-200', className)}
      data-testid="returned-debit"
    >
      {date && <p>{t('returnedDebit.returnedOn', { date })}</p>}
      <p>
        <span className="font-semibold">{t('returnedDebit.reason')}:</span> {reason}
      </p>
      {returned.fee > 0 && (
        <p>
          <span className="font-semibold">{t('returnedDebit.fee')}:</span>{' '}
          <span className="tabular-nums">{formatAmount(returned.fee)}</span>
          {returned.fee_charged && <> ({t('returnedDebit.feeCharged').toLowerCase()})</>}
        </p>
      )}
    </div>
  );
}
