import { useTranslation } from '@/lib/use-translation';
import { useVisualConfig } from '@/lib/visual-config';
import { getLegalFacts } from '../utils/legal-identity';
import { LegalPage, LegalSuspense } from './legal-page';
import { BulletList, MailSentence, Paragraph, PointGrid } from './legal-text';

const measures = [
  'encryption',
  'passwords',
  'sessions',
  'accessControl',
  'payments',
  'monitoring',
] as const;
const sensitiveData = ['cards', 'bankAccounts', 'credentials'] as const;
const recommendations = ['password', 'sharedDevices', 'address', 'updates'] as const;

/**
 * Spec §2 "Legal pages", security: five sections, six security measures and three points on
 * sensitive data; incidents go to the tenant's general mailbox.
 */
export function SecurityPolicy() {
  return (
    <LegalSuspense>
      <SecurityContent />
    </LegalSuspense>
  );
}

function SecurityContent() {
  const { t } = useTranslation('legal');
  const facts = getLegalFacts(useVisualConfig());
  const sections = [
    {
      id: 'compromiso',
      title: t('security.commitment.title'),
      content: <Paragraph>{t('security.commitment.text')}</Paragraph>,
    },
    {
      id: 'medidas',
      title: t('security.measures.title'),
      content: (
        <>
          <Paragraph>{t('security.measures.text')}</Paragraph>
          <PointGrid
            points={measures.map((key) => ({
              title: t(`security.measures.items.${key}.title`),
              text: t(`security.measures.items.${key}.text`),
            }))}
          />
        </>
      ),
    },
    {
      id: 'datos-sensibles',
      title: t('security.sensitiveData.title'),
      content: (
        <>
          <Paragraph>{t('security.sensitiveData.text')}</Paragraph>
          <BulletList
            items={sensitiveData.map((key) => t(`security.sensitiveData.items.${key}`))}
          />
        </>
      ),
    },
    {
      id: 'recomendaciones',
      title: t('security.recommendations.title'),
      content: (
        <>
          <Paragraph>{t('security.recommendations.text')}</Paragraph>
          <BulletList
            items={recommendations.map((key) => t(`security.recommendations.items.${key}`))}
          />
        </>
      ),
    },
    {
      id: 'incidentes',
      title: t('security.incidents.title'),
      content: (
        <>
          <MailSentence i18nKey="security.incidents.text" email={facts.contactEmail} />
          <Paragraph>{t('security.incidents.response')}</Paragraph>
        </>
      ),
    },
  ];
  return (
    <LegalPage
      page="security"
      intro={t('security.intro', { company: facts.company })}
      sections={sections}
    />
  );
}
