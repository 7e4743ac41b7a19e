import type { App } from "@/generated/prisma/client";
import { decodeCursor, keysetPage } from "@/lib/http/keyset-cursor";
import { expireDueSessions } from "./expire-sessions";
import { presentSession } from "./present";
import { reviewItems } from "./review-view";
import type { SessionsPageFilter } from "./schemas";
import { selectSessions } from "./select-sessions";

export const SESSIONS_PAGE_SIZE = 25;
export const REVIEW_QUEUE_PAGE_SIZE = 10;

/**
 * The portal's sessions list: the API list's filters and order (newest
 * first; selectSessions), a page at a time with a keyset cursor. Due
 * sessions are expired first, as for the API's list.
 */
export async function listSessionsPage(app: App, filter: SessionsPageFilter) {
  const after = filter.cursor ? decodeCursor(filter.cursor) : null;
  await expireDueSessions({ appId: app.id });
  const rows = await selectSessions(app.id, {
    status: filter.status,
    vendorData: filter.vendor_data,
    after,
    order: "newest",
    limit: SESSIONS_PAGE_SIZE + 1,
  });
  const { page, nextCursor } = keysetPage(rows, SESSIONS_PAGE_SIZE);
  return { sessions: page.map(presentSession), next_cursor: nextCursor };
}

/**
 * The review queue: the app's IN_REVIEW sessions, oldest first (first come,
 * first served: the session waiting longest is decided first), each with
 * its checks, the engine's reasons and its kept images.
 */
export async function listReviewQueue(app: App, options: { cursor?: string }) {
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const rows = await selectSessions(app.id, { status: "IN_REVIEW", after, order: "oldest", limit: REVIEW_QUEUE_PAGE_SIZE + 1 });
  const { page, nextCursor } = keysetPage(rows, REVIEW_QUEUE_PAGE_SIZE);
  return { sessions: await reviewItems(page), next_cursor: nextCursor };
}
