import { useTranslation } from 'react-i18next';
import { CompanyCard } from '@/components/ui/company-card';
import { Dialog } from '@/components/ui/dialog';
import { useVisualConfig } from '@/lib/visual-config';

type CompanyDialogProps = { open: boolean; onClose: () => void };

/** The side menu's "company" option: the tenant's card (logo, name, description). */
export function CompanyDialog({ open, onClose }: CompanyDialogProps) {
  const { t } = useTranslation();
  const { logoUrl, companyName, description } = useVisualConfig();
  return (
    <Dialog open={open} onClose={onClose} title={t('company.dialogTitle')}>
      <CompanyCard logoUrl={logoUrl} name={companyName} description={description} as="p" />
    </Dialog>
  );
}
