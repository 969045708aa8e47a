import { useTranslation } from '@/lib/use-translation';
import { QrCode } from '@/components/ui/qr-code';
import type { TotpSetup } from '../api/second-factor';

/** The secret for the authenticator app: its QR code, and the key to type when it cannot scan. */
export function TotpSecret({ setup }: { setup: TotpSetup }) {
  const { t } = useTranslation('sessions');
  // The key in groups of four, as the apps show it.
  const grouped = setup.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <div className="space-y-3">
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('twoFactor.scan')}</p>
      <QrCode text={setup.uri} label={t('twoFactor.qrLabel')} className="mx-auto size-48" />
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('twoFactor.manual')}</p>
      <p
        data-testid="totp-key"
        className="rounded-xl bg-gray-100 p-3 text-center font-mono text-sm break-all text-gray-900 select-all dark:bg-gray-900 dark:text-gray-100"
      >
        {grouped}
      </p>
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('twoFactor.confirmIntro')}</p>
    </div>
  );
}
