import type { Metadata } from "next";
import { WorkflowsPanel } from "@/components/portal/workflows/workflows-panel";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";
import { listWorkflowPage } from "@/lib/workflows/list-workflows-page";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.workflows.title} · ${t.productName}` };

export default async function WorkflowsPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const app = await requireAppOfDeveloper(await requireDeveloper(`/dashboard/apps/${appId}/workflows`), appId);
  return (
    <>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t.workflows.title}</h1>
      <WorkflowsPanel appId={app.id} firstPage={await listWorkflowPage(app)} />
    </>
  );
}
