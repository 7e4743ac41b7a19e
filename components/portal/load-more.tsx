"use client";

import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { errorMessage, text } from "./api";

/** The part of react-query's useInfiniteQuery result a "Load more" needs. */
type NextPages = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
};

/** Every cursor-paged portal list ends with this: why the next page failed, and the button that fetches it. */
export function LoadMore({ query }: { query: NextPages }) {
  return (
    <>
      {query.isFetchNextPageError && <Notice tone="error">{errorMessage(query.error)}</Notice>}
      {query.hasNextPage && (
        <Button variant="secondary" className="mt-4" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
          {query.isFetchingNextPage ? text.common.loading : text.common.loadMore}
        </Button>
      )}
    </>
  );
}
