import { useTranslation } from '@/lib/use-translation';
import { formatDate } from '@/lib/dates';
import { useVisualConfig } from '@/lib/visual-config';
import { getLegalFacts } from '../utils/legal-identity';
import { LegalPage, LegalSuspense } from './legal-page';
import { BulletList, MailSentence, Paragraph } from './legal-text';

/**
 * The day this statement was prepared and last reviewed (`yyyymmdd`): change it with the text,
 * after the review it describes (issue 23 item 8).
 */
export const accessibilityReviewDate = '20261126';

const nonAccessible = ['pdf', 'gateway'] as const;

/**
 * The accessibility statement (/accesibilidad) in the format of Spain's model (Real Decreto
 * 1112/2018, annex): compliance status, non-accessible content, how it was prepared and when,
 * feedback and contact (the tenant's mailbox), and the enforcement procedure.
 */
export function AccessibilityStatement() {
  return (
    <LegalSuspense>
      <AccessibilityContent />
    </LegalSuspense>
  );
}

function AccessibilityContent() {
  const { t } = useTranslation('legal');
  const facts = getLegalFacts(useVisualConfig());
  const date = formatDate(accessibilityReviewDate) ?? '';
  const sections = [
    {
      id: 'cumplimiento',
      title: t('accessibility.status.title'),
      content: <Paragraph>{t('accessibility.status.text')}</Paragraph>,
    },
    {
      id: 'contenido-no-accesible',
      title: t('accessibility.nonAccessible.title'),
      content: (
        <>
          <Paragraph>{t('accessibility.nonAccessible.text')}</Paragraph>
          <BulletList
            items={nonAccessible.map((key) => t(`accessibility.nonAccessible.items.${key}`))}
          />
        </>
      ),
    },
    {
      id: 'preparacion',
      title: t('accessibility.preparation.title'),
      content: <Paragraph>{t('accessibility.preparation.text', { date })}</Paragraph>,
    },
    {
      id: 'contacto',
      title: t('accessibility.contact.title'),
      content: <MailSentence i18nKey="accessibility.contact.text" email={facts.contactEmail} />,
    },
    {
      id: 'aplicacion',
      title: t('accessibility.enforcement.title'),
      content: <Paragraph>{t('accessibility.enforcement.text')}</Paragraph>,
    },
  ];
  return (
    <LegalPage
      page="accessibility"
      intro={t('accessibility.intro', { company: facts.company })}
      sections={sections}
    />
  );
}
