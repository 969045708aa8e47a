import { useTranslation } from '@/lib/use-translation';
import { useVisualConfig } from '@/lib/visual-config';
import { getLegalFacts } from '../utils/legal-identity';
import { AcceptAllSwitch } from './accept-all-switch';
import { LegalPage, LegalSuspense } from './legal-page';
import { BulletList, MailSentence, Paragraph } from './legal-text';

/** The cookies the API sets (apps/api/src/modules/auth/cookies.ts), by name. */
const cookies = [
  { name: 'refresh_token', key: 'refresh' },
  { name: 'XSRF-TOKEN', key: 'xsrf' },
] as const;
const storage = ['session', 'preferences', 'lastPath', 'payment', 'appFiles'] as const;

/**
 * Spec §2 "Legal pages", cookies: the technical cookies and browser storage the portal uses, the
 * accept-all switch fixed on and disabled, and the operator's mailbox.
 */
export function CookiePolicy() {
  return (
    <LegalSuspense>
      <CookieContent />
    </LegalSuspense>
  );
}

function CookieContent() {
  const { t } = useTranslation('legal');
  const facts = getLegalFacts(useVisualConfig());
  const sections = [
    {
      id: 'que-son',
      title: t('cookies.what.title'),
      content: <Paragraph>{t('cookies.what.text')}</Paragraph>,
    },
    {
      id: 'cookies-usadas',
      title: t('cookies.used.title'),
      content: (
        <>
          <Paragraph>{t('cookies.used.text')}</Paragraph>
          <ul className="grid gap-3 sm:grid-cols-2">
            {cookies.map((cookie) => (
              <li
                key={cookie.name}
                className="rounded-xl bg-white p-4 ring-1 ring-gray-200 dark:bg-gray-800 dark:ring-gray-700"
              >
                <h3 className="font-mono text-sm font-semibold text-gray-900 dark:text-gray-50">
                  {cookie.name}
                </h3>
                <dl className="mt-2 space-y-2 text-[0.9375rem] leading-6">
                  <div>
                    <dt className="text-sm font-medium text-gray-600 dark:text-gray-400">
                      {t('cookies.used.purpose')}
                    </dt>
                    <dd>{t(`cookies.used.items.${cookie.key}`)}</dd>
                  </div>
                  <div>
                    <dt className="text-sm font-medium text-gray-600 dark:text-gray-400">
                      {t('cookies.used.duration')}
                    </dt>
                    <dd>{t('cookies.used.sessionDuration')}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
        </>
      ),
    },
    {
      id: 'almacenamiento',
      title: t('cookies.storage.title'),
      content: (
        <>
          <Paragraph>{t('cookies.storage.text')}</Paragraph>
          <BulletList terms items={storage.map((key) => t(`cookies.storage.items.${key}`))} />
        </>
      ),
    },
    {
      id: 'consentimiento',
      title: t('cookies.consent.title'),
      content: (
        <>
          <Paragraph>{t('cookies.consent.text')}</Paragraph>
          <AcceptAllSwitch />
        </>
      ),
    },
    {
      id: 'eliminar',
      title: t('cookies.manage.title'),
      content: <Paragraph>{t('cookies.manage.text')}</Paragraph>,
    },
    {
      id: 'contacto',
      title: t('cookies.contact.title'),
      content: (
        <MailSentence
          i18nKey="cookies.contact.text"
          email={facts.privacyEmail}
          values={{ legalName: facts.legalName }}
        />
      ),
    },
  ];
  return (
    <LegalPage
      page="cookies"
      intro={t('cookies.intro', { company: facts.company })}
      sections={sections}
    />
  );
}
