import type { PresentedDelivery, PresentedWebhookEndpoint } from "@/lib/webhooks/deliveries";
import type { DeletedWebhook } from "@/lib/tenancy/webhook-endpoints";

export type { DeletedWebhook, PresentedDelivery, PresentedWebhookEndpoint };
export type DeliveryPage = { deliveries: PresentedDelivery[]; next_cursor: string | null };
export type RegisteredWebhook = { webhook_id: string; url: string; secret: string; approved: boolean; active: boolean };
