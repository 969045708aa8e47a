import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** A message one screen leaves for the next (in the history entry's state). */
export type Flash =
  | { kind: 'deleted'; name: string }
  | { kind: 'accountAdded' }
  | { kind: 'mandateSigned'; name: string };

/** The `state` of a navigation that leaves `flash` for the next screen. */
export function withFlash(flash: Flash): { paymentMethodsFlash: Flash } {
  return { paymentMethodsFlash: flash };
}

/**
 * The message left by the previous screen, shown once: the history entry forgets it, so a reload
 * or coming back later does not say it again.
 */
export function useFlash(): Flash | null {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as { paymentMethodsFlash?: Flash } | null;
  const [flash] = useState<Flash | null>(() => state?.paymentMethodsFlash ?? null);
  const hasState = Boolean(state?.paymentMethodsFlash);
  useEffect(() => {
    if (hasState) {
      void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
    }
  }, [hasState, navigate, location.pathname, location.search]);
  return flash;
}
