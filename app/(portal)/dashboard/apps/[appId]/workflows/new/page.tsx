import type { Metadata } from "next";
import { WorkflowBuilder } from "@/components/portal/workflows/workflow-builder";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";
import { workflowBuilderSchema } from "@/lib/workflows/builder-schema";
import { SubPageHeading } from "@/components/portal/sub-page-heading";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.workflows.newTitle} · ${t.productName}` };

export default async function NewWorkflowPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const app = await requireAppOfDeveloper(await requireDeveloper(`/dashboard/apps/${appId}/workflows/new`), appId);
  return (
    <>
      <SubPageHeading back={{ href: `/dashboard/apps/${app.id}/workflows`, label: t.workflows.backToList }} title={t.workflows.newTitle} />
      <WorkflowBuilder appId={app.id} schema={await workflowBuilderSchema()} />
    </>
  );
}
