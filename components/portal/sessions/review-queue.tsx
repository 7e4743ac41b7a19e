"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { LiveStatus } from "@/components/ui/notice";
import type { ReviewItem } from "@/lib/sessions/review-view";
import { formatDate, portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import { LoadMore } from "../load-more";
import { checkName, checkStatusLabel, statusLabel } from "./labels";
import { ReviewPanel } from "./review-panel";

const t = text.review;

export type ReviewQueuePage = { sessions: ReviewItem[]; next_cursor: string | null };

/**
 * The IN_REVIEW sessions, oldest first, one card each (images, reasons,
 * scores, Approve / Decline). A decided session leaves the queue when the
 * queue is refetched; what happened is announced.
 */
export function ReviewQueue({ appId, firstPage }: { appId: string; firstPage: ReviewQueuePage }) {
  const [announcement, setAnnouncement] = useState("");
  useServerSnapshot(queryKeys.reviewQueue(appId), { pages: [firstPage], pageParams: [null] });
  const queue = useInfiniteQuery({
    queryKey: queryKeys.reviewQueue(appId),
    queryFn: ({ pageParam }) =>
      portalFetch<ReviewQueuePage>("GET", `/api/portal/apps/${appId}/sessions/review-queue${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ""}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    initialData: { pages: [firstPage], pageParams: [null] },
  });
  const items = queue.data.pages.flatMap((p) => p.sessions);
  return (
    <div>
      <LiveStatus className="mt-2 font-medium text-green-800">{announcement}</LiveStatus>
      {items.length === 0 && <p className="mt-4 text-slate-700">{t.empty}</p>}
      {items.map((item) => {
        const id = item.session.session_id;
        const headingId = `review-${id}`;
        return (
          <article key={id} aria-labelledby={headingId} className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
            <h2 id={headingId} className="break-all text-lg font-semibold text-slate-900">
              {text.sessions.open(id)}
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              {t.waitingSince(formatDate(item.session.completed_at ?? item.session.created_at))}
              {item.session.vendor_data && <span className="break-all"> · {t.vendorData(item.session.vendor_data)}</span>}
              {" · "}
              <Link className="font-semibold text-blue-800 underline" href={`/dashboard/apps/${appId}/sessions/${id}`}>
                {t.sessionLink(id.slice(0, 8))}
              </Link>
            </p>
            <div className="mt-4">
              <ReviewPanel
                appId={appId}
                item={item}
                headingLevel="h3"
                onDecided={(session) => setAnnouncement(t.decided(session.session_id, statusLabel(session.status)))}
                onCheckSettled={(check, status) => setAnnouncement(t.settle.settled(id, checkName(check), checkStatusLabel(status)))}
              />
            </div>
          </article>
        );
      })}
      <LoadMore query={queue} />
    </div>
  );
}
