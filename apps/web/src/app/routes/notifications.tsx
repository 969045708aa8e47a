import { NotificationsScreen } from '@/features/notifications/components/notifications-screen';

/** Spec §2 "Notifications" (/my-notifications). */
export function Component() {
  return <NotificationsScreen />;
}
