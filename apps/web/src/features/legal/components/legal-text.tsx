import type { ReactNode } from 'react';
import { Trans, useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/utils/cn';

/** Links inside running text: underlined, and long addresses may wrap anywhere on a phone. */
export const textLinkClasses =
  'rounded-sm font-medium text-primary-ink underline decoration-1 underline-offset-2 [overflow-wrap:anywhere] hover:decoration-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink';

export function Paragraph({ children, className }: { children: ReactNode; className?: string }) {
  return <p className={cn('max-w-prose', className)}>{children}</p>;
}

/** `Term: explanation` -> the term, or nothing when the sentence does not start with one. */
const leadIn = /^([^:]{1,40}):\s(.+)$/s;

/**
 * A bulleted list of sentences. With `terms`, each sentence reads `Term: explanation` (the rights,
 * the stored items) and the term is set in bold so that the list can be scanned.
 */
export function BulletList({ items, terms = false }: { items: string[]; terms?: boolean }) {
  return (
    <ul className="max-w-prose list-disc space-y-2 ps-5 marker:text-gray-500 dark:marker:text-gray-400">
      {items.map((item) => {
        const parts = terms ? leadIn.exec(item) : null;
        return (
          <li key={item} className="ps-1">
            {parts ? (
              <>
                <strong className="font-semibold text-gray-900 dark:text-gray-50">
                  {parts[1]}:
                </strong>{' '}
                {parts[2]}
              </>
            ) : (
              item
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Titled points (principles, measures): cards, two columns where there is room. */
export function PointGrid({ points }: { points: { title: string; text: string }[] }) {
  return (
    <ol className="grid gap-2.5 sm:grid-cols-2 sm:gap-3">
      {points.map((point, index) => (
        <li
          key={point.title}
          className="flex gap-3 rounded-xl bg-white p-3.5 ring-1 ring-gray-200 sm:p-4 dark:bg-gray-800 dark:ring-gray-700"
        >
          <span
            aria-hidden="true"
            className="grid size-7 shrink-0 place-items-center rounded-full bg-gray-100 text-sm font-semibold text-gray-700 tabular-nums dark:bg-gray-700 dark:text-gray-200"
          >
            {index + 1}
          </span>
          <span className="min-w-0">
            <strong className="block font-semibold text-gray-900 dark:text-gray-50">
              {point.title}
            </strong>
            <span className="mt-1 block text-[0.9375rem] leading-6">{point.text}</span>
          </span>
        </li>
      ))}
    </ol>
  );
}

/** A mailbox as a `mailto:` link; without one, the contact form stands in. */
export function MailLink({ email }: { email: string; children?: ReactNode }) {
  const { t } = useTranslation('legal');
  if (!email) {
    return (
      <Link to={paths.contact} className={textLinkClasses}>
        {t('page.contactForm')}
      </Link>
    );
  }
  return (
    <a href={`mailto:${email}`} className={textLinkClasses}>
      {email}
    </a>
  );
}

/** The legal texts that name a mailbox: `<mail>{{email}}</mail>` in every language. */
export type MailTextKey =
  | 'privacy.controller.contact'
  | 'privacy.controller.dpo'
  | 'privacy.rights.how'
  | 'privacy.complaint.before'
  | 'security.incidents.text'
  | 'cookies.contact.text'
  | 'accessibility.contact.text';

/** A sentence of the legal texts with its mailbox as a link. */
export function MailSentence({
  i18nKey,
  email,
  values,
}: {
  i18nKey: MailTextKey;
  email: string;
  values?: Record<string, string>;
}) {
  const { t } = useTranslation('legal');
  return (
    <Paragraph>
      <Trans
        text={t(i18nKey, { ...values, email })}
        components={{ mail: <MailLink email={email} /> }}
      />
    </Paragraph>
  );
}
