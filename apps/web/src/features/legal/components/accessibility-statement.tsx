import { useTranslation } from '@/lib/use-translation';
import { formatDate } from '@/lib/dates';
import { useVisualConfig } from '@/lib/visual-config';
import { getLegalFacts } from '../utils/legal-identity';
import { LegalPage, LegalSuspense } from './legal-page';
import { BulletList, MailSentence, Paragraph } from './legal-text';

/** The day this statement was first prepared (`yyyymmdd`, issue 23 item 8). */
export const accessibilityPreparedDate = '20261126';

/**
 * The day of its last review (`yyyymmdd`): change it with the text, after the review it
 * describes (the axe gallery at 390 and 1280 px in both themes, keyboard and screen reader).
 */
export const accessibilityReviewDate = '20261126';

/**
 * The model's three kinds of non-accessible content, in its order: a lack of conformity, a
 * disproportionate burden (claimed for nothing) and content outside the scope (the gateway).
 */
const nonAccessible = ['pdf', 'burden', 'gateway'] as const;

/** The optional content of the model: what the portal does for accessibility, all tested. */
const measures = ['keyboard', 'themes', 'sizes', 'announcements', 'languages'] as const;

/**
 * The accessibility statement (/accesibilidad) in the format of Spain's model (Real Decreto
 * 1112/2018, annex; the Observatorio de Accesibilidad's model statement): the commitment and its
 * scope, compliance status against UNE-EN 301549:2022 / WCAG 2.1 AA, non-accessible content by the
 * model's three kinds, how it was prepared and when it was last reviewed, feedback and contact
 * (the tenant's mailbox), the enforcement procedure, and the optional content (the measures).
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
  const prepared = formatDate(accessibilityPreparedDate) ?? '';
  const reviewed = formatDate(accessibilityReviewDate) ?? '';
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
            terms
            items={nonAccessible.map((key) => t(`accessibility.nonAccessible.items.${key}`))}
          />
        </>
      ),
    },
    {
      id: 'preparacion',
      title: t('accessibility.preparation.title'),
      content: <Paragraph>{t('accessibility.preparation.text', { prepared, reviewed })}</Paragraph>,
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
    {
      id: 'medidas',
      title: t('accessibility.measures.title'),
      content: (
        <>
          <Paragraph>{t('accessibility.measures.text')}</Paragraph>
          <BulletList items={measures.map((key) => t(`accessibility.measures.items.${key}`))} />
        </>
      ),
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
