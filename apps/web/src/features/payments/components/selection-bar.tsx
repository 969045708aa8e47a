import { useId } from 'react';
import { maxPaymentIds } from '@portal/contract/payment-limits';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { cardClasses } from '@/components/ui/surfaces';
import { formatAmount, sumAmounts } from '@/lib/money';
import { paymentsCheckinHref } from '@/lib/payment-checkin';
import { cn } from '@/utils/cn';
import type { Selection } from './selection';

/**
 * The running total of the select-to-pay mode (a polite live region), and the hand-over to the
 * payment screen with the chosen instalments and their total. Fixed above the bottom bar, and
 * placed in the page right after the rows, so "Pagar seleccionados" is the keyboard's next stop
 * after the last checkbox (not after the filters, footer and links, 24 Tabs later). Above the
 * contract's instalments per payment it says so and does not hand over: the confirmation could
 * not pay them, and the customer would go round in a loop.
 */
export function SelectionBar({ selection }: { selection: Selection }) {
  const { t } = useTranslation('invoices');
  const total = sumAmounts(selection.values());
  const count = selection.size;
  const tooMany = count > maxPaymentIds;
  const tooManyId = useId();
  return (
    <div className="fixed inset-x-0 bottom-20 z-20 px-4 md:bottom-4 print:hidden">
      <div
        className={cn(
          cardClasses,
          'mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-3 p-4 shadow-lg ring-2 ring-primary-ink',
        )}
      >
        <p
          aria-live="polite"
          aria-atomic="true"
          className="text-sm text-gray-900 dark:text-gray-100"
        >
          <span className="block font-medium">{t('payments.selected', { count })}</span>
          <span className="block text-lg font-bold tabular-nums">
            {t('payments.total', { amount: formatAmount(total) })}
          </span>
          {tooMany && (
            <span id={tooManyId} className="block font-medium text-red-700 dark:text-red-300">
              {t('payments.tooMany', { max: maxPaymentIds })}
            </span>
          )}
        </p>
        {tooMany ? (
          <Button disabled aria-describedby={tooManyId}>
            {t('payments.paySelected')}
          </Button>
        ) : count > 0 ? (
          <Link
            to={paymentsCheckinHref([...selection.keys()], total)}
            className={buttonClasses('primary')}
          >
            {t('payments.paySelected')}
          </Link>
        ) : (
          <Button disabled>{t('payments.paySelected')}</Button>
        )}
      </div>
    </div>
  );
}
