import { ApiError } from "@/lib/http/api-error";
import type { RequestView } from "@/lib/http/core/request";
import { issuer } from "./config";

const FRAMED = new Set(["iframe", "frame", "embed", "object", "fencedframe"]);

/** Whether a request's `Sec-Fetch-Dest` says it loads inside another page. */
export function isFramed(secFetchDest: string | null): boolean {
  return FRAMED.has(secFetchDest ?? "");
}

/**
 * A browser post of our own pages (the sign-in pages, the account page):
 * refused when sent from inside a frame (Sec-Fetch-Dest) or from another
 * origin (clickjacking and cross-site posts), 403 `forbidden`.
 */
export function assertOwnPagePost(req: Pick<RequestView, "headers">) {
  if (isFramed(req.headers.get("sec-fetch-dest"))) {
    throw new ApiError("forbidden", { message: "These pages cannot be used inside a frame" });
  }
  const origin = req.headers.get("origin");
  if (origin && origin !== "null" && origin !== new URL(issuer()).origin) {
    throw new ApiError("forbidden", { message: "Cross-origin posts are not accepted" });
  }
}
