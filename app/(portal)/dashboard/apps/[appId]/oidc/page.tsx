import type { Metadata } from "next";
import { OidcClientPanel } from "@/components/portal/oidc/oidc-client-panel";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { endpoints } from "@/lib/oidc/config";
import { requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";
import { readOidcSettings } from "@/lib/tenancy/oidc-settings";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.oidc.title} · ${t.productName}` };

export default async function OidcClientPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const app = await requireAppOfDeveloper(await requireDeveloper(`/dashboard/apps/${appId}/oidc`), appId);
  const settings = { ...(await readOidcSettings(app.id)), discovery_url: endpoints().discovery };
  return (
    <>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t.oidc.title}</h1>
      <OidcClientPanel initial={settings} />
    </>
  );
}
