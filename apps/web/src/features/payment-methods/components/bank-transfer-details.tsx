import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { AlertIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/utils/cn';
import { useBankTransferInfo } from '../api/get-bank-transfer-info';
import { usePaymentMethodsTexts } from '../texts';
import { CopyButton } from './copy-button';
import { QrCode } from '@/components/ui/qr-code';

/** Selects the text of a node, so the customer can copy it by hand. */
function selectText(node: HTMLElement | null) {
  const selection = window.getSelection();
  if (!node || !selection) return;
  selection.selectAllChildren(node);
}

function CopyRow({
  label,
  value,
  copyValue,
  hint,
  mono,
}: {
  label: string;
  value: string;
  copyValue: string;
  hint?: string;
  mono?: boolean;
}) {
  const valueRef = useRef<HTMLElement>(null);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 py-3">
      <dt className="col-start-1 text-sm text-gray-700 dark:text-gray-300">{label}</dt>
      <dd
        ref={valueRef}
        className={cn(
          'col-start-1 mt-0.5 font-semibold break-words text-gray-900 dark:text-gray-50',
          mono && 'font-mono tracking-tight',
        )}
      >
        {value}
      </dd>
      {hint && (
        <dd className="col-start-1 mt-0.5 text-xs text-gray-600 dark:text-gray-300">{hint}</dd>
      )}
      <dd className="col-start-2 row-span-3 row-start-1 self-center">
        <CopyButton value={copyValue} field={label} onFailed={() => selectText(valueRef.current)} />
      </dd>
    </div>
  );
}

/**
 * The tenant's account for transfers (bankTransferInfo): beneficiary, IBAN and the customer's
 * reference, each with a copy button, and the EPC QR code a banking app scans to fill the transfer.
 */
export function BankTransferDetails() {
  const t = usePaymentMethodsTexts();
  const info = useBankTransferInfo();
  useEffect(() => {
    if (info.error) console.error('Could not load the bank-transfer data', info.error);
  }, [info.error]);

  if (info.isPending) {
    return (
      <div
        role="status"
        aria-label={t('common.loading')}
        className="grid gap-6 md:grid-cols-[minmax(0,1fr)_16rem]"
      >
        <Skeleton className="h-56 rounded-2xl" />
        <Skeleton className="h-72 rounded-2xl" />
      </div>
    );
  }
  if (info.isError) {
    const isMissing = info.error instanceof ApiError && info.error.status === 404;
    return (
      <div
        role="alert"
        className={cn(cardClasses, 'flex flex-col items-center gap-3 p-8 text-center')}
      >
        <AlertIcon className="size-8 text-red-700 dark:text-red-300" />
        <p className="font-medium text-gray-900 dark:text-gray-100">
          {isMissing ? t('bankTransfer.unavailable') : t('bankTransfer.loadError')}
        </p>
        {!isMissing && (
          <Button variant="secondary" onClick={() => void info.refetch()}>
            {t('common.retry')}
          </Button>
        )}
      </div>
    );
  }

  const { beneficiary, iban, reference, epc_qr: epcQr } = info.data;
  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_16rem]">
      <section aria-labelledby="transfer-data" className={cn(cardClasses, 'h-fit p-4 sm:p-6')}>
        <h2 id="transfer-data" className={sectionTitleClasses}>
          {t('bankTransfer.accountTitle')}
        </h2>
        <dl className="mt-2 divide-y divide-gray-200 dark:divide-gray-700">
          <CopyRow
            label={t('bankTransfer.beneficiary')}
            value={beneficiary}
            copyValue={beneficiary}
          />
          <CopyRow
            label={t('bankTransfer.iban')}
            value={iban}
            copyValue={iban.replace(/\s/g, '')}
            mono
          />
          <CopyRow
            label={t('bankTransfer.reference')}
            value={reference}
            copyValue={reference}
            hint={t('bankTransfer.referenceHint')}
          />
        </dl>
      </section>
      <section aria-labelledby="transfer-qr" className={cn(cardClasses, 'h-fit p-4 sm:p-6')}>
        <h2 id="transfer-qr" className={sectionTitleClasses}>
          {t('bankTransfer.qrTitle')}
        </h2>
        <QrCode
          text={epcQr}
          label={t('bankTransfer.qrLabel', { beneficiary, iban, reference })}
          className="mx-auto mt-4 w-full max-w-56 ring-1 ring-gray-200 dark:ring-0"
        />
        <p className="mt-3 text-sm text-gray-700 dark:text-gray-300">{t('bankTransfer.qrHint')}</p>
      </section>
    </div>
  );
}
