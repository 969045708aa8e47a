import { type ReactNode, Suspense, useId } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { AccessibilityIcon, CookieIcon, LockIcon, ShieldIcon } from '@/components/ui/icons';
import { OptionTile } from '@/components/ui/option-tile';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';

export type LegalSection = { id: string; title: string; content: ReactNode };
export type LegalPageName = 'privacy' | 'security' | 'cookies' | 'accessibility';

const pages = {
  privacy: { to: paths.privacy, icon: <LockIcon /> },
  security: { to: paths.security, icon: <ShieldIcon /> },
  cookies: { to: paths.cookies, icon: <CookieIcon /> },
  accessibility: { to: paths.accessibility, icon: <AccessibilityIcon /> },
} as const;

type LegalPageProps = {
  page: LegalPageName;
  intro: string;
  sections: LegalSection[];
};

/**
 * The frame of a legal page: title and introduction, a table of contents (beside the text from
 * `lg` up), numbered sections in a column narrow enough to read, and links to the other two
 * policies (spec §2 "Legal pages").
 */
export function LegalPage({ page, intro, sections }: LegalPageProps) {
  const { t } = useTranslation('legal');
  const tocId = useId();
  const relatedId = useId();
  return (
    <article className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 lg:py-10">
      <header className="max-w-prose">
        <p className="text-sm font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400">
          {t('page.eyebrow')}
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-gray-900 text-balance sm:text-4xl dark:text-gray-50">
          {t(`links.${page}.title`)}
        </h1>
        <p className="mt-4 text-[1.0625rem] leading-7 text-gray-700 sm:text-lg sm:leading-8 dark:text-gray-300">
          {intro}
        </p>
      </header>

      <div className="mt-8 lg:grid lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-12">
        <nav
          aria-labelledby={tocId}
          className="rounded-2xl bg-white p-4 ring-1 ring-gray-200 lg:sticky lg:top-24 lg:self-start lg:bg-transparent lg:p-0 lg:ring-0 dark:bg-gray-800 dark:ring-gray-700 lg:dark:bg-transparent"
        >
          <h2
            id={tocId}
            className="text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400"
          >
            {t('page.onThisPage')}
          </h2>
          <ol className="mt-2 space-y-0.5 text-sm">
            {sections.map((section, index) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="flex gap-2 rounded-lg px-2 py-1.5 text-gray-700 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink lg:-mx-2 dark:text-gray-300 dark:hover:bg-gray-800 dark:hover:text-gray-50"
                >
                  <span className="w-5 shrink-0 text-end tabular-nums">{index + 1}.</span>
                  <span>{section.title}</span>
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <div className="mt-10 min-w-0 space-y-12 text-base leading-7 text-gray-700 lg:mt-0 dark:text-gray-300">
          {sections.map((section, index) => (
            <section
              key={section.id}
              id={section.id}
              aria-labelledby={`${section.id}-title`}
              className="scroll-mt-24"
            >
              <h2
                id={`${section.id}-title`}
                className="flex gap-2 text-xl font-semibold text-gray-900 text-balance sm:text-2xl dark:text-gray-50"
              >
                <span className="text-gray-500 tabular-nums dark:text-gray-400">{index + 1}.</span>
                <span>{section.title}</span>
              </h2>
              <div className="mt-4 space-y-4">{section.content}</div>
            </section>
          ))}

          <nav
            aria-labelledby={relatedId}
            className="border-t border-gray-200 pt-8 dark:border-gray-700"
          >
            <h2 id={relatedId} className="text-lg font-semibold text-gray-900 dark:text-gray-50">
              {t('page.related')}
            </h2>
            <ul className="mt-4 grid gap-3 sm:grid-cols-2">
              {(Object.keys(pages) as LegalPageName[])
                .filter((other) => other !== page)
                .map((other) => (
                  <li key={other}>
                    <OptionTile
                      to={pages[other].to}
                      icon={pages[other].icon}
                      label={t(`links.${other}.title`)}
                      description={t(`links.${other}.description`)}
                    />
                  </li>
                ))}
            </ul>
          </nav>
        </div>
      </div>
    </article>
  );
}

/**
 * The legal texts are a namespace of their own, loaded on the way in (the routes' loaders); if a
 * language change ever has to wait for them, only the page waits, not the whole app.
 */
export function LegalSuspense({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="grid min-h-64 place-items-center">
          <LoadingLabel />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

function LoadingLabel() {
  // The common namespace is always loaded: it cannot suspend.
  const { t } = useTranslation();
  return <Spinner label={t('app.loading')} />;
}
