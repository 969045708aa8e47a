import { ContactDataScreen } from '@/features/profile/components/contact-data-screen';

/** From the profile: the telephone, invoice e-mail and postal address (issue 23). */
export function Component() {
  return <ContactDataScreen />;
}
