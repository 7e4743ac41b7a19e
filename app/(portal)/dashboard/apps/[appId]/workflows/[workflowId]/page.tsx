import type { Metadata } from "next";
import { WorkflowActions } from "@/components/portal/workflows/workflow-actions";
import { WorkflowBuilder } from "@/components/portal/workflows/workflow-builder";
import { sessionCostCents } from "@/lib/billing/session-cover";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { foundOrNotFound, requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";
import { workflowBuilderSchema } from "@/lib/workflows/builder-schema";
import { findWorkflow, presentWorkflow } from "@/lib/workflows/workflows";
import { SubPageHeading } from "@/components/portal/sub-page-heading";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.workflows.title} · ${t.productName}` };

export default async function WorkflowPage({ params }: { params: Promise<{ appId: string; workflowId: string }> }) {
  const { appId, workflowId } = await params;
  const app = await requireAppOfDeveloper(await requireDeveloper(`/dashboard/apps/${appId}/workflows/${workflowId}`), appId);
  const workflow = await foundOrNotFound(findWorkflow(app, workflowId));
  const presented = presentWorkflow(workflow);
  return (
    <>
      <SubPageHeading back={{ href: `/dashboard/apps/${app.id}/workflows`, label: t.workflows.backToList }} title={t.workflows.editTitle(presented.name)} />
      <WorkflowBuilder appId={app.id} schema={await workflowBuilderSchema()} workflow={presented} />
      <WorkflowActions
        appId={app.id}
        initial={presented}
        context={{ environment: app.environment as "test" | "production", appActive: app.isActive, costCents: sessionCostCents(presented.features) }}
      />
    </>
  );
}
