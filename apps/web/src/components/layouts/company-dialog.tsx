import { useTranslation } from 'react-i18next';
import { CompanyCard } from '@/components/ui/company-card';
import { Dialog } from '@/components/ui/dialog';
import { useVisualConfig } from '@/lib/visual-config';

type CompanyDialogProps = { open: boolean; onClose: () => void };

/**
 * The side menu's "company" option: the tenant's card, then how to reach the organisation (review
 * #17): its registered name and tax id, address and mailbox, from the legal identity the legal
 * pages show. Lines the tenant has not filled are left out.
 */
export function CompanyDialog({ open, onClose }: CompanyDialogProps) {
  const { t } = useTranslation();
  const { logoUrl, companyName, description, legal } = useVisualConfig();
  const email = legal.contact_email || legal.privacy_email;
  const rows = [
    { key: 'legalName', label: t('company.legalName'), value: legal.name },
    { key: 'taxId', label: t('company.taxId'), value: legal.tax_id },
    { key: 'address', label: t('company.address'), value: legal.address },
  ].filter((row) => row.value);
  return (
    <Dialog open={open} onClose={onClose} title={t('company.dialogTitle')}>
      <CompanyCard logoUrl={logoUrl} name={companyName} description={description} as="p" />
      {(rows.length > 0 || email) && (
        <dl className="mt-5 space-y-3 border-t border-gray-200 pt-4 text-sm dark:border-gray-700">
          {rows.map((row) => (
            <div key={row.key}>
              <dt className="font-medium text-gray-600 dark:text-gray-300">{row.label}</dt>
              <dd className="break-words text-gray-900 dark:text-gray-50">{row.value}</dd>
            </div>
          ))}
          {email && (
            <div>
              <dt className="font-medium text-gray-600 dark:text-gray-300">{t('company.email')}</dt>
              <dd>
                <a
                  href={`mailto:${email}`}
                  className="inline-flex min-h-11 items-center rounded font-medium break-all text-primary-ink underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-primary-ink"
                >
                  {email}
                </a>
              </dd>
            </div>
          )}
        </dl>
      )}
    </Dialog>
  );
}
