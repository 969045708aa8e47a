import { createContext, type ReactNode } from 'react';
import type { Texts } from './translate';

/**
 * Strings given to a subtree instead of the app's store (lib/i18n.ts): the server's render of
 * /login (entry-server.tsx), in the visitor's language, and the /login entry, which hydrates it
 * with the page language's strings (src/login/main.tsx).
 */
export const TextsContext = createContext<Texts | null>(null);

export function TextsProvider({ texts, children }: { texts: Texts; children: ReactNode }) {
  return <TextsContext value={texts}>{children}</TextsContext>;
}
