import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { CompanyCard } from '@/components/ui/company-card';
import { Dialog } from '@/components/ui/dialog';
import { companyReach, websiteLabel } from '@/lib/company-reach';
import { useVisualConfig } from '@/lib/visual-config';

type CompanyDialogProps = { open: boolean; onClose: () => void };

const linkClass =
  'inline-flex min-h-11 items-center rounded font-medium wrap-anywhere text-primary-ink underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-primary-ink';

/**
 * The side menu's "company" option: the tenant's card, then how to reach the organisation (review
 * #17): its telephone, mailbox, website and opening hours, then its registered name, tax id and
 * address, from the legal identity the legal pages show. Lines the tenant has not filled are left
 * out; a telephone or website that would not make a safe link too (lib/company-reach.ts).
 */
export function CompanyDialog({ open, onClose }: CompanyDialogProps) {
  const { t } = useTranslation();
  const { logoUrl, companyName, description, legal } = useVisualConfig();
  const reach = companyReach(legal);
  const rows: { key: string; label: string; value: ReactNode }[] = [];
  if (reach.phone)
    rows.push({
      key: 'phone',
      label: t('company.phone'),
      value: (
        <a href={reach.phone.href} className={linkClass}>
          {reach.phone.text}
        </a>
      ),
    });
  if (reach.email)
    rows.push({
      key: 'email',
      label: t('company.email'),
      value: (
        <a href={`mailto:${reach.email}`} className={linkClass}>
          {reach.email}
        </a>
      ),
    });
  if (reach.website)
    rows.push({
      key: 'website',
      label: t('company.website'),
      value: (
        <a href={reach.website} target="_blank" rel="noopener noreferrer" className={linkClass}>
          {websiteLabel(reach.website)}
        </a>
      ),
    });
  if (reach.hours)
    rows.push({
      key: 'hours',
      label: t('company.hours'),
      value: <span className="whitespace-pre-line">{reach.hours}</span>,
    });
  for (const [key, value] of [
    ['legalName', legal.name],
    ['taxId', legal.tax_id],
    ['address', legal.address],
  ] as const) {
    if (value) rows.push({ key, label: t(`company.${key}`), value });
  }
  return (
    <Dialog open={open} onClose={onClose} title={t('company.dialogTitle')}>
      <CompanyCard logoUrl={logoUrl} name={companyName} description={description} as="p" />
      {rows.length > 0 && (
        <dl className="mt-5 space-y-3 border-t border-gray-200 pt-4 text-sm dark:border-gray-700">
          {rows.map((row) => (
            <div key={row.key}>
              <dt className="font-medium text-gray-600 dark:text-gray-300">{row.label}</dt>
              <dd className="break-words text-gray-900 dark:text-gray-50">{row.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </Dialog>
  );
}
