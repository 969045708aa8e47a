import type { TFunction } from 'i18next';
import { useTranslation } from '@/lib/use-translation';

export type NotificationsT = TFunction<'notifications'>;

/** `t` of the `notifications` namespace (typed from the Spanish file by types/i18next.d.ts). */
export function useNotificationsT(): { t: NotificationsT } {
  return { t: useTranslation('notifications').t };
}
