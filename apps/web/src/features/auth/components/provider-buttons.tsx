import type { ComponentType, SVGProps } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { buttonClasses } from '@/components/ui/button';
import { type SignInProvider, signInStartUrl } from '../api/external-sign-in';
import { AppleMark, GoogleMark, MicrosoftMark } from './auth-icons';

/** Provider names are brands: the same in every language. */
export const providerNames: Record<SignInProvider, string> = {
  google: 'Google',
  apple: 'Apple',
  microsoft: 'Microsoft',
};

const marks: Record<SignInProvider, ComponentType<SVGProps<SVGSVGElement>>> = {
  google: GoogleMark,
  apple: AppleMark,
  microsoft: MicrosoftMark,
};

const order: readonly SignInProvider[] = ['google', 'apple', 'microsoft'];

type ProviderButtonsProps = { providers: readonly SignInProvider[]; remember: boolean };

/**
 * Spec §2 "Login": one button per external sign-in the tenant has configured. Each is a plain link:
 * the browser goes to the API, which redirects to the provider's authorization page.
 */
export function ProviderButtons({ providers, remember }: ProviderButtonsProps) {
  const { t } = useTranslation('auth');
  const shown = order.filter((provider) => providers.includes(provider));
  if (shown.length === 0) return null;
  return (
    <div className="mt-6">
      <div className="flex items-center gap-3 text-sm text-gray-600 dark:text-gray-300">
        <span aria-hidden="true" className="h-px flex-1 bg-gray-200 dark:bg-gray-700" />
        <span>{t('login.or')}</span>
        <span aria-hidden="true" className="h-px flex-1 bg-gray-200 dark:bg-gray-700" />
      </div>
      <ul className="mt-4 space-y-2.5">
        {shown.map((provider) => {
          const Mark = marks[provider];
          return (
            <li key={provider}>
              <a
                href={signInStartUrl(provider, remember)}
                className={buttonClasses('secondary', 'w-full min-h-12 text-base')}
              >
                <Mark className="size-5 shrink-0" />
                {t('login.continueWith', { provider: providerNames[provider] })}
              </a>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
