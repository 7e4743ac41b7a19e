import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";

/**
 * Every list cursor (the ledger, sessions, the review queue, workflows, the
 * webhook delivery log): opaque
 * to the client, the last row's `created_at` and id, so the next page is one
 * index range `(created_at, id) < (t, id)` (or `>` going forward in time)
 * whatever the list's size: no offset, no count.
 */
export type KeysetCursor = { t: string; id: string };

const CursorSchema = z.object({ t: z.iso.datetime(), id: z.string().min(1).max(64) });

export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify({ t: createdAt.toISOString(), id })).toString("base64url");
}

/** The cursor's position, or 400 `invalid_request` naming the `cursor` field. */
export function decodeCursor(cursor: string): KeysetCursor {
  try {
    return CursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw new ApiError("invalid_request", { message: "Invalid cursor", data: { errors: { cursor: ["Invalid cursor"] } } });
  }
}

/** One page of `limit` rows from a query that fetched `limit + 1`, with the next page's cursor (null at the end). */
export function keysetPage<R extends { createdAt: Date; id: string }>(rows: R[], limit: number): { page: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

/** The Prisma `where` of the rows after `cursor` in (createdAt desc, id desc) order. */
export function afterCursor(cursor: string | undefined) {
  if (!cursor) return {};
  const after = decodeCursor(cursor);
  const createdAt = new Date(after.t);
  return { OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: after.id } }] };
}
