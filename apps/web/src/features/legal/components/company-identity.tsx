import { useTranslation } from '@/lib/use-translation';
import type { LegalFacts } from '../utils/legal-identity';
import { MailLink } from './legal-text';

/** The company's identification (LSSI art. 10): the rows the tenant has filled in. */
export function CompanyIdentity({ facts }: { facts: LegalFacts }) {
  const { t } = useTranslation('legal');
  const rows = [
    { label: t('identity.legalName'), value: facts.legalName },
    { label: t('identity.taxId'), value: facts.taxId },
    { label: t('identity.address'), value: facts.address },
    { label: t('identity.contactEmail'), value: facts.contactEmail, email: true },
    { label: t('identity.privacyEmail'), value: facts.privacyEmail, email: true },
    { label: t('identity.dpoEmail'), value: facts.dpoEmail, email: true },
  ].filter((row) => row.value);
  return (
    <dl className="divide-y divide-gray-200 rounded-2xl bg-white px-4 ring-1 ring-gray-200 dark:divide-gray-700 dark:bg-gray-800 dark:ring-gray-700">
      {rows.map((row) => (
        <div
          key={row.label}
          className="grid gap-0.5 py-3 sm:grid-cols-[16rem_minmax(0,1fr)] sm:gap-4"
        >
          <dt className="text-sm font-medium text-gray-600 sm:leading-6 dark:text-gray-400">
            {row.label}
          </dt>
          <dd className="text-gray-900 [overflow-wrap:anywhere] dark:text-gray-100">
            {row.email ? <MailLink email={row.value} /> : row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
