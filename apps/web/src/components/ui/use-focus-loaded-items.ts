import { type RefObject, useEffect, useRef } from 'react';

/**
 * "View more" for keyboard and screen-reader users: after a page loaded on request, focus moves to
 * the first new item of the list (its first link or checkbox), instead of being lost with the
 * button. Items are the list's children, or the elements `itemSelector` finds in it (the
 * notifications' day groups hold their cards one level down). Returns the function to call just
 * before asking for the next page.
 */
export function useFocusLoadedItems(
  listRef: RefObject<HTMLElement | null>,
  itemCount: number,
  isLoading: boolean,
  itemSelector?: string,
): () => void {
  const firstNew = useRef<number | null>(null);
  useEffect(() => {
    const index = firstNew.current;
    if (index === null || isLoading) return;
    firstNew.current = null;
    if (itemCount <= index) return;
    const list = listRef.current;
    const item = itemSelector ? list?.querySelectorAll(itemSelector)[index] : list?.children[index];
    item?.querySelector<HTMLElement>('input, a, button')?.focus();
  }, [listRef, itemCount, isLoading, itemSelector]);
  return () => {
    firstNew.current = itemCount;
  };
}
