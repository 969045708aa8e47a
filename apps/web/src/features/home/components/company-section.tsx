import { useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { CompanyDialog } from '@/components/layouts/company-dialog';
import { Button } from '@/components/ui/button';
import { CompanyLogo } from '@/components/ui/company-logo';
import { InfoIcon } from '@/components/ui/icons';
import { cardClasses } from '@/components/ui/surfaces';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';

/** Spec §2 "Home" company card: logo (default on load error), name, description, more info. */
export function CompanySection({ className }: { className?: string }) {
  const { t } = useTranslation('invoices');
  const { logoUrl, companyName, description } = useVisualConfig();
  const [isOpen, setOpen] = useState(false);
  return (
    <section aria-labelledby="home-company" className={cn(cardClasses, 'p-5', className)}>
      <div className="flex items-start gap-4 lg:flex-col lg:items-center lg:text-center">
        <CompanyLogo src={logoUrl} className="size-16 shrink-0 rounded-2xl lg:size-20" />
        <div className="min-w-0">
          <h2 id="home-company" className="text-lg font-bold text-gray-900 dark:text-gray-50">
            {companyName}
          </h2>
          {description && (
            <p className="mt-1 line-clamp-3 text-sm text-gray-700 dark:text-gray-300">
              {description}
            </p>
          )}
        </div>
      </div>
      <Button
        variant="secondary"
        className="mt-4 w-full"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <InfoIcon className="size-5" />
        {t('home.moreInfo')}
      </Button>
      <CompanyDialog open={isOpen} onClose={() => setOpen(false)} />
    </section>
  );
}
