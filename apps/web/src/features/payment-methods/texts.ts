import type { TFunction } from 'i18next';
import { useTranslation } from '@/lib/use-translation';

export type Translate = TFunction<'payment-methods'>;

/** `t` of the `payment-methods` namespace (typed from the Spanish file by types/i18next.d.ts). */
export function usePaymentMethodsTexts(): Translate {
  return useTranslation('payment-methods').t;
}
