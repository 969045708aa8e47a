import { type ReactNode, type Ref, useId } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { CompanyLogo } from '@/components/ui/company-logo';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';

type AuthCardProps = {
  title: string;
  description?: ReactNode;
  /** The heading takes focus when a screen changes state (form -> success). */
  titleRef?: Ref<HTMLHeadingElement>;
  /** A state's mark above the title (the success screens). */
  icon?: ReactNode;
  children: ReactNode;
};

const legalLinkClasses =
  'inline-flex min-h-11 items-center rounded px-1 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-primary-ink';

/**
 * The frame of the sign-in screens: the tenant's card (logo, name, description), then the form,
 * then the privacy and cookie policies (review #24). On a phone the header already shows the
 * logo and the name: the card starts with the form there.
 */
export function AuthCard({ title, description, titleRef, icon, children }: AuthCardProps) {
  const { t } = useTranslation('common');
  const titleId = useId();
  const { logoUrl, companyName, description: companyDescription } = useVisualConfig();
  return (
    <div className="flex min-h-full flex-col items-center justify-start px-4 py-6 sm:justify-center sm:py-4">
      <section
        aria-labelledby={titleId}
        className="w-full max-w-sm rounded-3xl bg-white p-5 shadow-sm ring-1 ring-gray-200 sm:p-6 dark:bg-gray-800 dark:ring-gray-700"
      >
        {/* Logo and name side by side: the card fits a 1280x800 screen (review #24). */}
        <div className="hidden sm:block">
          <div className="flex items-center justify-center gap-3">
            <CompanyLogo src={logoUrl} className="size-12 shrink-0 rounded-xl" />
            <p className="min-w-0 text-xl font-bold break-words text-gray-900 dark:text-gray-50">
              {companyName}
            </p>
          </div>
          {companyDescription && (
            <p className="mt-2 text-center text-sm text-gray-700 dark:text-gray-300">
              {companyDescription}
            </p>
          )}
        </div>
        <div className="sm:mt-4 sm:border-t sm:border-gray-200 sm:pt-4 sm:dark:border-gray-700">
          {icon && <div className="mb-4 flex justify-center">{icon}</div>}
          <h1
            id={titleId}
            ref={titleRef}
            tabIndex={-1}
            className="text-center text-2xl font-bold text-gray-900 focus:outline-none dark:text-gray-50"
          >
            {title}
          </h1>
          {description && (
            <p className="mt-2 text-center text-sm text-gray-700 dark:text-gray-300">
              {description}
            </p>
          )}
          <div className={cn(description ? 'mt-6' : 'mt-5')}>{children}</div>
        </div>
      </section>
      <nav
        aria-label={t('menu.sections.legal')}
        className="mt-1 flex flex-wrap justify-center gap-x-4 text-sm text-gray-700 dark:text-gray-300"
      >
        <Link to={paths.privacy} className={legalLinkClasses}>
          {t('menu.privacy')}
        </Link>
        <Link to={paths.cookies} className={legalLinkClasses}>
          {t('menu.cookies')}
        </Link>
        <Link to={paths.accessibility} className={legalLinkClasses}>
          {t('menu.accessibility')}
        </Link>
      </nav>
    </div>
  );
}
