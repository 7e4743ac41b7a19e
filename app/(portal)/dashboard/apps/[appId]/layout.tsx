import Link from "next/link";
import { AppNav } from "@/components/portal/shell/app-nav";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";

const t = messagesFor(DEFAULT_LOCALE).portal;

/** One app's pages: only for developers of the organization that owns it (else 404). */
export default async function AppLayout({ params, children }: { params: Promise<{ appId: string }>; children: React.ReactNode }) {
  const { appId } = await params;
  const developer = await requireDeveloper(`/dashboard/apps/${appId}`);
  const app = await requireAppOfDeveloper(developer, appId);
  return (
    <div>
      <p>
        <Link className="text-sm font-semibold text-blue-800 underline" href={`/dashboard/apps?environment=${app.environment}`}>
          {t.appNav.allApps}
        </Link>
      </p>
      <p className="mt-2 flex flex-wrap items-center gap-2 text-xl font-semibold text-slate-900">
        <span>{app.name}</span>
        <span className={`rounded-full px-2 py-0.5 text-sm font-medium ${app.environment === "production" ? "bg-emerald-700 text-white" : "bg-amber-200 text-amber-950"}`}>
          {t.environment[app.environment]}
        </span>
        {!app.isActive && <span className="rounded-full bg-slate-200 px-2 py-0.5 text-sm font-medium text-slate-800">{t.apps.inactive}</span>}
      </p>
      <AppNav appId={app.id} appName={app.name} />
      {children}
    </div>
  );
}
