"use client";

import { useQuery } from "@tanstack/react-query";
import { Section } from "@/components/ui/section";
import { portalFetch, queryKeys, text } from "../api";
import { useServerSnapshot } from "../server-snapshot";
import { DeliveryLog } from "./delivery-log";
import { RegisterWebhookForm } from "./register-webhook-form";
import { TestEventButtons } from "./test-event-buttons";
import type { DeliveryPage, PresentedWebhookEndpoint } from "./types";
import { WebhookEndpointsTable } from "./webhook-endpoints-table";

const t = text.webhooks;

/** An app's webhooks: register, approve, rotate the secret, send test events, the delivery log with resend. */
export function WebhooksPanel({
  appId,
  environment,
  initialWebhooks,
  firstDeliveries,
}: {
  appId: string;
  environment: "test" | "production";
  initialWebhooks: PresentedWebhookEndpoint[];
  firstDeliveries: DeliveryPage;
}) {
  useServerSnapshot(queryKeys.webhooks(appId), initialWebhooks);
  const webhooks = useQuery({
    queryKey: queryKeys.webhooks(appId),
    queryFn: () => portalFetch<{ webhooks: PresentedWebhookEndpoint[] }>("GET", `/api/portal/apps/${appId}/webhooks`).then((d) => d.webhooks),
    initialData: initialWebhooks,
  });
  return (
    <div>
      <p className="mt-1 text-slate-700">{t.intro}</p>
      <Section title={t.registerHeading} id="register-webhook">
        <RegisterWebhookForm appId={appId} environment={environment} />
      </Section>
      <Section title={t.listHeading} id="webhooks" description={t.listIntro}>
        <WebhookEndpointsTable appId={appId} webhooks={webhooks.data} />
      </Section>
      <Section title={t.testHeading} id="test-events" description={t.testIntro}>
        <TestEventButtons appId={appId} webhooks={webhooks.data} />
      </Section>
      <Section title={t.logHeading} id="deliveries" description={t.logIntro}>
        <DeliveryLog appId={appId} webhooks={webhooks.data} firstPage={firstDeliveries} />
      </Section>
    </div>
  );
}
