import type { Metadata } from "next";
import { AppsPanel } from "@/components/portal/apps/apps-panel";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireDeveloper } from "@/lib/portal/page-access";
import { listOrganizationApps } from "@/lib/tenancy/app-settings";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.apps.title} · ${t.productName}` };

export default async function AppsPage({ searchParams }: { searchParams: Promise<{ environment?: string }> }) {
  const environment = (await searchParams).environment === "production" ? "production" : "test";
  const developer = await requireDeveloper(`/dashboard/apps?environment=${environment}`);
  const apps = await listOrganizationApps(developer.organizationId, environment);
  return <AppsPanel key={environment} environment={environment} initialApps={apps} />;
}
