import type { Metadata } from "next";
import { ReviewQueue } from "@/components/portal/sessions/review-queue";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";
import { listReviewQueue } from "@/lib/sessions/session-pages";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.review.title} · ${t.productName}` };

/** The app's IN_REVIEW sessions, oldest first, with their kept images, scores and reasons, and Approve / Decline. */
export default async function ReviewQueuePage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const app = await requireAppOfDeveloper(await requireDeveloper(`/dashboard/apps/${appId}/review`), appId);
  return (
    <>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t.review.title}</h1>
      <p className="mt-1 text-slate-700">{t.review.intro}</p>
      <ReviewQueue appId={app.id} firstPage={await listReviewQueue(app, {})} />
    </>
  );
}
