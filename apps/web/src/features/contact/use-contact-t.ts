import type { TFunction } from 'i18next';
import { useTranslation } from '@/lib/use-translation';

export type ContactT = TFunction<'contact'>;

/** `t` of the `contact` namespace (typed from the Spanish file by types/i18next.d.ts). */
export function useContactT(): ContactT {
  return useTranslation('contact').t;
}
