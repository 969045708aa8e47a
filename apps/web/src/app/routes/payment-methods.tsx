import { useTranslation } from 'react-i18next';

/**
 * /metodos-de-pago: its guard (spec §6, /unauthorized without a token) is in the router; the screen
 * itself arrives with the payment-methods issue.
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-bold text-gray-900 dark:text-gray-50">
        {t('menu.paymentMethods')}
      </h1>
      <p className="mt-2 text-gray-700 dark:text-gray-300">{t('nav.comingSoon')}</p>
    </div>
  );
}
