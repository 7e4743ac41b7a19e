"use client";

import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";

/**
 * What the server just rendered is the freshest view of a resource: put it in
 * react-query's cache as the page mounts, before the query reads it.
 * (`initialData` alone is ignored once the cache holds the key, so coming
 * back to a page within the cache's stale time showed what it held before:
 * a wallet balance from before the last charges, a review queue without its
 * newest session.) Once per mount; the page's own mutations invalidate as
 * usual afterwards.
 */
export function useServerSnapshot<T>(queryKey: QueryKey, data: T | undefined) {
  const client = useQueryClient();
  useState(() => {
    if (data !== undefined) client.setQueryData(queryKey, data);
    return null;
  });
}
