import { useTranslation } from '@/lib/use-translation';
import { useVisualConfig } from '@/lib/visual-config';
import { getLegalFacts } from '../utils/legal-identity';
import { CompanyIdentity } from './company-identity';
import { LegalPage, LegalSuspense } from './legal-page';
import { BulletList, MailSentence, Paragraph, PointGrid, textLinkClasses } from './legal-text';

/** The ten principles, in the order the page numbers them (RGPD art. 5 and 25). */
const principles = [
  'lawfulness',
  'fairness',
  'transparency',
  'purposeLimitation',
  'minimisation',
  'accuracy',
  'storageLimitation',
  'integrity',
  'accountability',
  'byDesign',
] as const;
const purposes = ['account', 'billing', 'payments', 'notices', 'contact'] as const;
const legalBases = ['contract', 'legalObligation', 'legitimateInterest', 'consent'] as const;
const rights = [
  'access',
  'rectification',
  'erasure',
  'restriction',
  'portability',
  'objection',
  'automated',
] as const;

/** The Spanish data-protection authority, where a complaint goes (RGPD art. 77). */
export const regulatorUrl = 'https://www.aepd.es/';

/**
 * Spec §2 "Legal pages", privacy: eight sections (controller, company identification, the ten
 * principles, purposes, legal basis, retention, rights, the complaint to the AEPD), filled with the
 * tenant's identity and mailboxes.
 */
export function PrivacyPolicy() {
  return (
    <LegalSuspense>
      <PrivacyContent />
    </LegalSuspense>
  );
}

function PrivacyContent() {
  const { t } = useTranslation('legal');
  const facts = getLegalFacts(useVisualConfig());
  const sections = [
    {
      id: 'responsable',
      title: t('privacy.controller.title'),
      content: (
        <>
          <Paragraph>{t('privacy.controller.text', { legalName: facts.legalName })}</Paragraph>
          <MailSentence i18nKey="privacy.controller.contact" email={facts.privacyEmail} />
          {facts.dpoEmail && (
            <MailSentence i18nKey="privacy.controller.dpo" email={facts.dpoEmail} />
          )}
        </>
      ),
    },
    {
      id: 'empresa',
      title: t('privacy.company.title'),
      content: (
        <>
          <Paragraph>{t('privacy.company.text')}</Paragraph>
          <CompanyIdentity facts={facts} />
        </>
      ),
    },
    {
      id: 'principios',
      title: t('privacy.principles.title'),
      content: (
        <>
          <Paragraph>{t('privacy.principles.text')}</Paragraph>
          <PointGrid
            points={principles.map((key) => ({
              title: t(`privacy.principles.items.${key}.title`),
              text: t(`privacy.principles.items.${key}.text`),
            }))}
          />
        </>
      ),
    },
    {
      id: 'finalidades',
      title: t('privacy.purposes.title'),
      content: (
        <>
          <Paragraph>{t('privacy.purposes.text')}</Paragraph>
          <BulletList items={purposes.map((key) => t(`privacy.purposes.items.${key}`))} />
          <Paragraph>{t('privacy.purposes.recipients')}</Paragraph>
        </>
      ),
    },
    {
      id: 'base-juridica',
      title: t('privacy.legalBasis.title'),
      content: (
        <>
          <Paragraph>{t('privacy.legalBasis.text')}</Paragraph>
          <BulletList items={legalBases.map((key) => t(`privacy.legalBasis.items.${key}`))} />
        </>
      ),
    },
    {
      id: 'conservacion',
      title: t('privacy.retention.title'),
      content: (
        <>
          <Paragraph>{t('privacy.retention.text')}</Paragraph>
          <Paragraph>{t('privacy.retention.session')}</Paragraph>
        </>
      ),
    },
    {
      id: 'derechos',
      title: t('privacy.rights.title'),
      content: (
        <>
          <Paragraph>{t('privacy.rights.text')}</Paragraph>
          <BulletList terms items={rights.map((key) => t(`privacy.rights.items.${key}`))} />
          <MailSentence i18nKey="privacy.rights.how" email={facts.privacyEmail} />
          <Paragraph>{t('privacy.rights.withdraw')}</Paragraph>
        </>
      ),
    },
    {
      id: 'reclamacion',
      title: t('privacy.complaint.title'),
      content: (
        <>
          <Paragraph>{t('privacy.complaint.text')}</Paragraph>
          <Paragraph>
            <a
              href={regulatorUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={textLinkClasses}
            >
              {t('privacy.complaint.link')}
              <span className="sr-only"> {t('page.opensInNewTab')}</span>
            </a>
          </Paragraph>
          <MailSentence
            i18nKey="privacy.complaint.before"
            email={facts.dpoEmail || facts.privacyEmail}
          />
        </>
      ),
    },
  ];
  return (
    <LegalPage
      page="privacy"
      intro={t('privacy.intro', { company: facts.company })}
      sections={sections}
    />
  );
}
