import type { Metadata } from "next";
import { RosterPanel } from "@/components/portal/organization/roster-panel";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireDeveloper } from "@/lib/portal/page-access";
import { listRosterPage } from "@/lib/portal/roster";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.organization.roster.title} · ${t.productName}` };

/** The organization's roster: add, list (every role, a status filter) and act on members (lib/org through /api/portal/organization). */
export default async function RosterPage() {
  const developer = await requireDeveloper("/dashboard/roster");
  const firstPage = await listRosterPage(developer.organizationId);
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">{t.organization.roster.title}</h1>
      <RosterPanel firstPage={firstPage} />
    </>
  );
}
