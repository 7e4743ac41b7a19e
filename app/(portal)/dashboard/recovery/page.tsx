import type { Metadata } from "next";
import { RecoveryLogPanel } from "@/components/portal/organization/recovery-log-panel";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireDeveloper } from "@/lib/portal/page-access";
import { listPortalRecoveryLog } from "@/lib/portal/recovery-log";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.organization.recovery.title} · ${t.productName}` };

/** The organization's account recovery log (listRecoveryLog), each recovery session linked to its page. */
export default async function RecoveryPage() {
  const developer = await requireDeveloper("/dashboard/recovery");
  const log = await listPortalRecoveryLog(developer.organizationId);
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">{t.organization.recovery.title}</h1>
      <RecoveryLogPanel initial={log} />
    </>
  );
}
