import { SecurityPolicy } from '@/features/legal/components/security-policy';
import { loadNamespace } from '@/lib/i18n';

/** Spec §2 "Legal pages" (/seguridad), readable signed in or not. */
export async function loader() {
  // The legal texts are not in the first chunk (lib/i18n.ts): fetched before the page shows.
  await loadNamespace('legal');
  return null;
}

export function Component() {
  return <SecurityPolicy />;
}
