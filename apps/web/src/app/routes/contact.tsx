import { ContactScreen } from '@/features/contact/components/contact-screen';
import { ThreadsShortcut } from '@/features/invoice-threads/components/threads-shortcut';

/** Spec §2 "Contact" (/contacto). */
export function Component() {
  // Issue 23, item 7: questions about an invoice live in their conversations, reached from here.
  return <ContactScreen before={<ThreadsShortcut className="mt-6" />} />;
}
