import { MyActivityScreen } from '@/features/activity/components/my-activity-screen';

/** Spec §2 "My activity" (/mi-actividad). */
export function Component() {
  return <MyActivityScreen />;
}
