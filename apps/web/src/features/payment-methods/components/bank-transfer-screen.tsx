import { cardClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { usePaymentMethodsTexts } from '../texts';
import { BankTransferDetails } from './bank-transfer-details';
import { MainMethodField } from './main-method-field';
import { Page } from '@/components/ui/page';

/**
 * Spec §2 "Add bank transfer" (/add-bank-transfer: what paying by transfer means, the data to pay
 * with, and the main-method modal) and "Bank data" (/datos-bancarios: the same data, read only).
 */
export function BankTransferScreen({ variant }: { variant: 'add' | 'data' }) {
  const t = usePaymentMethodsTexts();
  const { companyName } = useVisualConfig();
  return (
    <Page width="wide">
      <h1 className={pageTitleClasses}>
        {variant === 'add' ? t('bankTransfer.addTitle') : t('bankTransfer.dataTitle')}
      </h1>
      <p className="mt-1 max-w-prose text-gray-700 dark:text-gray-300">
        {variant === 'add'
          ? t('bankTransfer.addIntro')
          : t('bankTransfer.dataIntro', { company: companyName })}
      </p>
      <div className="mt-6">
        <BankTransferDetails />
      </div>
      {variant === 'add' && (
        <div className={cn(cardClasses, 'mt-6 p-4 sm:p-6')}>
          <MainMethodField before="transfer" />
        </div>
      )}
    </Page>
  );
}
