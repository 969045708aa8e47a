import { type ReactNode, type Ref, useId } from 'react';
import { CompanyCard } from '@/components/ui/company-card';
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

/** The frame of the sign-in screens: the tenant's card (logo, name, description), then the form. */
export function AuthCard({ title, description, titleRef, icon, children }: AuthCardProps) {
  const titleId = useId();
  const { logoUrl, companyName, description: companyDescription } = useVisualConfig();
  return (
    <div className="flex min-h-full items-start justify-center px-4 py-6 sm:items-center sm:py-16">
      <section
        aria-labelledby={titleId}
        className="w-full max-w-sm rounded-3xl bg-white p-5 shadow-sm ring-1 ring-gray-200 sm:p-8 dark:bg-gray-800 dark:ring-gray-700"
      >
        <CompanyCard logoUrl={logoUrl} name={companyName} description={companyDescription} as="p" />
        <div className="mt-6 border-t border-gray-200 pt-6 dark:border-gray-700">
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
    </div>
  );
}
