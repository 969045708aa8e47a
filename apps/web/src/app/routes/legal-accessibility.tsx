import { AccessibilityStatement } from '@/features/legal/components/accessibility-statement';
import { loadNamespace } from '@/lib/i18n';

/** The accessibility statement (/accesibilidad), beside the legal pages; readable signed in or not. */
export async function loader() {
  // The legal texts are not in the first chunk (lib/i18n.ts): fetched before the page shows.
  await loadNamespace('legal');
  return null;
}

export function Component() {
  return <AccessibilityStatement />;
}
