import type { Metadata } from "next";
import { WebhooksPanel } from "@/components/portal/webhooks/webhooks-panel";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";
import { listDeliveryPage, listWebhookEndpoints } from "@/lib/webhooks/deliveries";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.webhooks.title} · ${t.productName}` };

export default async function WebhooksPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const app = await requireAppOfDeveloper(await requireDeveloper(`/dashboard/apps/${appId}/webhooks`), appId);
  const [webhooks, deliveries] = await Promise.all([listWebhookEndpoints(app.id), listDeliveryPage(app.id)]);
  return (
    <>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t.webhooks.title}</h1>
      <WebhooksPanel appId={app.id} environment={app.environment} initialWebhooks={webhooks} firstDeliveries={deliveries} />
    </>
  );
}
