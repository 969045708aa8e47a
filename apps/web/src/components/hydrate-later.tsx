import { type ReactNode, Suspense, use } from 'react';
import { hydrationTurn } from '@/lib/prerender';

type HydrateLaterProps = {
  /** Unique on the page; parts take their turns in the order they are first rendered. */
  name: string;
  /** One element: a part waiting for its turn keeps exactly one node of the prerendered markup. */
  children: ReactNode;
};

/**
 * A part of a prerendered page (/login) that the app takes over in a task of its own, after the
 * parts before it (lib/prerender.ts `hydrationTurn`): its markup stays as the server sent it, on
 * screen and usable, meanwhile. Everywhere else, and on the server, it renders its children as is.
 *
 * Ids from `useId` are handed out in render order, so the parts must be the page's last ones in
 * document order, each rendering after everything before it, as the server did.
 */
export function HydrateLater({ name, children }: HydrateLaterProps) {
  return (
    <Suspense fallback={null}>
      <Turn name={name}>{children}</Turn>
    </Suspense>
  );
}

function Turn({ name, children }: HydrateLaterProps) {
  const turn = hydrationTurn(name);
  // While hydrating, Suspense keeps the prerendered markup of a part that waits, not a fallback.
  if (turn) use(turn);
  return children;
}
