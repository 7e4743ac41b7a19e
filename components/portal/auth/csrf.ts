"use client";

import { useQuery } from "@tanstack/react-query";
import { queryKeys } from "../api";

/**
 * next-auth's CSRF token (GET /api/portal/auth/csrf also sets its cookie):
 * next-auth's own POSTs (sign-in, sign-out) carry it in the body.
 */
export function useCsrfToken(): string | undefined {
  const { data } = useQuery({
    queryKey: queryKeys.csrf,
    queryFn: async () => {
      const res = await fetch("/api/portal/auth/csrf", { credentials: "same-origin" });
      const body = (await res.json()) as { csrfToken?: string };
      if (!body.csrfToken) throw new Error("no csrf token");
      return body.csrfToken;
    },
    staleTime: Infinity,
  });
  return data;
}
