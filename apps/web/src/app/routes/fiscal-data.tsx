import { FiscalDataScreen } from '@/features/profile/components/fiscal-data-screen';

/** From the profile: ask the organisation to change the fiscal data (issue 23). */
export function Component() {
  return <FiscalDataScreen />;
}
