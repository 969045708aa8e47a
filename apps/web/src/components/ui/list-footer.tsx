import { Button } from './button';
import { Spinner } from './spinner';

type ListFooterProps = {
  hasMore: boolean;
  isFetchingMore: boolean;
  /** Loading the next page failed. */
  isError: boolean;
  onLoadMore: () => void;
  texts: {
    viewMore: string;
    loading: string;
    noMore: string;
    loadMoreError: string;
    retry: string;
  };
};

/**
 * The end of a paginated list (spec §4 "Invoice list": load more, no-more message, load-more
 * error state): a "view more" button while there are pages, a spinner while one loads, the error
 * with a retry, or the no-more message. Announced politely as it changes.
 */
export function ListFooter({
  hasMore,
  isFetchingMore,
  isError,
  onLoadMore,
  texts,
}: ListFooterProps) {
  return (
    <div
      aria-live="polite"
      className="mt-4 flex flex-col items-center gap-3 text-center print:hidden"
    >
      {isFetchingMore ? (
        <Spinner label={texts.loading} />
      ) : isError ? (
        <>
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {texts.loadMoreError}
          </p>
          <Button variant="secondary" onClick={onLoadMore}>
            {texts.retry}
          </Button>
        </>
      ) : hasMore ? (
        <Button variant="secondary" onClick={onLoadMore}>
          {texts.viewMore}
        </Button>
      ) : (
        <p className="text-sm text-gray-600 dark:text-gray-400">{texts.noMore}</p>
      )}
    </div>
  );
}
