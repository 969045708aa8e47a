import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusableIn(node: HTMLElement): HTMLElement[] {
  return [...node.querySelectorAll<HTMLElement>(focusable)].filter(
    (el) => !el.closest('[inert]') && el.getAttribute('aria-hidden') !== 'true',
  );
}

type ModalOptions = {
  /** Where focus goes back on close; the element focused at opening when not given. */
  returnFocusRef?: RefObject<HTMLElement | null>;
};

/**
 * The keyboard contract of a modal (dialog or side menu) while `open`: focus moves inside, Tab and
 * Shift+Tab cycle inside, Escape closes, the page does not scroll behind it, and focus returns to
 * the opener on close. Listeners sit on the modal's own node, so a dialog opened from the side menu
 * (rendered in its own portal) handles its Escape without closing the menu too.
 */
export function useModal(
  ref: RefObject<HTMLElement | null>,
  open: boolean,
  onClose: () => void,
  { returnFocusRef }: ModalOptions = {},
): void {
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  // Before the browser paints the open modal: by the time it can be seen, focus is inside and
  // Escape is heard (a key pressed as it appears would otherwise go to the page behind).
  useLayoutEffect(() => {
    const node = ref.current;
    if (!open || !node) return;
    const opener =
      returnFocusRef?.current ??
      (document.activeElement instanceof HTMLElement ? document.activeElement : null);
    (node.querySelector<HTMLElement>('[data-autofocus]') ?? focusableIn(node)[0] ?? node).focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusableIn(node);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        event.preventDefault();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === first || active === node)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || active === node)) {
        event.preventDefault();
        first.focus();
      }
    };
    node.addEventListener('keydown', onKeyDown);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';

    return () => {
      node.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      if (opener?.isConnected) opener.focus();
    };
  }, [open, ref, returnFocusRef]);
}
