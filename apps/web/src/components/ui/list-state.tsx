import type { ReactNode } from 'react';
import { cn } from '@/utils/cn';
import { Button } from './button';
import { AlertIcon, type IconProps } from './icons';
import { ListFooter } from './list-footer';
import { cardClasses } from './surfaces';

/** What `ListState` reads of a TanStack query, paginated or not. */
export type ListQuery = {
  isPending: boolean;
  isError: boolean;
  data: unknown;
  refetch: () => unknown;
};

/** What the "view more" footer reads of an infinite query. */
export type MoreQuery = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
};

type ListStateProps = {
  query: ListQuery;
  isEmpty: boolean;
  /** Placeholders shaped like the list's rows, shown while the first page loads. */
  skeleton: ReactNode;
  empty: { icon: (props: IconProps) => ReactNode; title: string; hint: string };
  texts: { loading: string; loadError: string; retry: string };
  /** A paginated list's footer (spec §4 "view more"), with its texts. */
  more?: {
    query: MoreQuery;
    /** Runs before the next page is asked for (the focus moves to its first item). */
    beforeLoadMore?: () => void;
    texts: { viewMore: string; noMore: string; loadMoreError: string };
  };
  /** The items, once there are some. */
  children: ReactNode;
};

/**
 * Every state of a list, in one place (spec §4 and §8): placeholders announced as loading while
 * the first page loads; the error with a retry when it could not be loaded (a later page's error
 * keeps what was loaded and is the footer's); the empty text with what to do; or the items and,
 * for a paginated list, the footer with "view more", its loading, its error and "no more".
 */
export function ListState({
  query,
  isEmpty,
  skeleton,
  empty,
  texts,
  more,
  children,
}: ListStateProps) {
  if (query.isPending) {
    return (
      <div role="status" aria-label={texts.loading}>
        {skeleton}
      </div>
    );
  }
  if (query.isError && !query.data) {
    return (
      <div
        role="alert"
        className={cn(cardClasses, 'flex flex-col items-center gap-3 p-8 text-center')}
      >
        <AlertIcon className="size-8 text-red-700 dark:text-red-300" />
        <p className="font-medium text-gray-900 dark:text-gray-100">{texts.loadError}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          {texts.retry}
        </Button>
      </div>
    );
  }
  if (isEmpty) {
    const Icon = empty.icon;
    return (
      <div className={cn(cardClasses, 'flex flex-col items-center gap-2 p-8 text-center')}>
        <Icon className="size-8 text-gray-500 dark:text-gray-400" />
        <p className="font-medium text-gray-900 dark:text-gray-100">{empty.title}</p>
        <p className="text-sm text-gray-600 dark:text-gray-300">{empty.hint}</p>
      </div>
    );
  }
  return (
    <>
      {children}
      {more && (
        <ListFooter
          hasMore={more.query.hasNextPage}
          isFetchingMore={more.query.isFetchingNextPage}
          isError={more.query.isFetchNextPageError}
          onLoadMore={() => {
            more.beforeLoadMore?.();
            void more.query.fetchNextPage();
          }}
          texts={{ ...more.texts, loading: texts.loading, retry: texts.retry }}
        />
      )}
    </>
  );
}
