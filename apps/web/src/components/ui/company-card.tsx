import { cn } from '@/utils/cn';
import { CompanyLogo } from './company-logo';

type CompanyCardProps = {
  logoUrl: string | null;
  name: string;
  description: string;
  /** Heading level of the name within the page. */
  as?: 'h1' | 'h2' | 'h3' | 'p';
  className?: string;
};

/** The tenant's logo, name and description (login, side menu, home). */
export function CompanyCard({
  logoUrl,
  name,
  description,
  as: Name = 'h2',
  className,
}: CompanyCardProps) {
  return (
    <div className={cn('flex flex-col items-center gap-3 text-center', className)}>
      <CompanyLogo src={logoUrl} className="size-20 rounded-2xl" />
      <Name className="text-xl font-bold text-gray-900 dark:text-gray-50">{name}</Name>
      {description && <p className="text-sm text-gray-700 dark:text-gray-300">{description}</p>}
    </div>
  );
}
