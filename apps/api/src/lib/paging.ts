/**
 * The admin lists' paging (contract admin-paging.ts): the repository is asked for one row more
 * than the page, and that row's presence says whether there is a next page, whose cursor is the
 * id of the page's last item.
 */
export function pageOf<T extends { id: string }>(
  rows: readonly T[],
  limit: number,
): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  return { page, nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}
