import { ContactScreen } from '@/features/contact/components/contact-screen';

/** Spec §2 "Contact" (/contacto). */
export function Component() {
  return <ContactScreen />;
}
