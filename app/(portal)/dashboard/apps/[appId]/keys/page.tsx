import type { Metadata } from "next";
import { ApiKeysPanel } from "@/components/portal/keys/api-keys-panel";
import { env } from "@/lib/config/env";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";
import { listApiKeys } from "@/lib/tenancy/api-keys";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.apiKeys.title} · ${t.productName}` };

export default async function ApiKeysPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const app = await requireAppOfDeveloper(await requireDeveloper(`/dashboard/apps/${appId}/keys`), appId);
  return (
    <>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t.apiKeys.title}</h1>
      <ApiKeysPanel appId={app.id} initialKeys={await listApiKeys(app.id)} credentialCacheSeconds={Math.ceil(env().CREDENTIAL_CACHE_MS / 1000)} />
    </>
  );
}
