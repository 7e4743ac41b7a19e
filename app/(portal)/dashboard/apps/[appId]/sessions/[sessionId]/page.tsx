import type { Metadata } from "next";
import { SessionDetailView } from "@/components/portal/sessions/session-detail-view";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { foundOrNotFound, requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";
import { getSessionDetail } from "@/lib/sessions/session-detail";
import { SubPageHeading } from "@/components/portal/sub-page-heading";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.sessions.detailTitle} · ${t.productName}` };

/** One session of the app (another app's, or an unknown id: the 404 page). */
export default async function SessionPage({ params }: { params: Promise<{ appId: string; sessionId: string }> }) {
  const { appId, sessionId } = await params;
  const app = await requireAppOfDeveloper(await requireDeveloper(`/dashboard/apps/${appId}/sessions/${sessionId}`), appId);
  const detail = await foundOrNotFound(getSessionDetail(app, sessionId));
  return (
    <>
      <SubPageHeading back={{ href: `/dashboard/apps/${app.id}/sessions`, label: t.sessions.allSessions }} title={t.sessions.open(detail.session.session_id)} />
      <SessionDetailView appId={app.id} initial={detail} />
    </>
  );
}
