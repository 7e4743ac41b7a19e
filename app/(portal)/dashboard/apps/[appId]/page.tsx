import type { Metadata } from "next";
import { AppSettingsPanel } from "@/components/portal/apps/app-settings-panel";
import { env } from "@/lib/config/env";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";
import { presentApp } from "@/lib/tenancy/app-settings";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.appSettings.title} · ${t.productName}` };

export default async function AppSettingsPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const app = await requireAppOfDeveloper(await requireDeveloper(`/dashboard/apps/${appId}`), appId);
  return (
    <>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t.appSettings.title}</h1>
      <AppSettingsPanel initialApp={presentApp(app)} credentialCacheSeconds={Math.ceil(env().CREDENTIAL_CACHE_MS / 1000)} />
    </>
  );
}
