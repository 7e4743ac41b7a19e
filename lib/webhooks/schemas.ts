import { z } from "zod";
import { DELIVERY_STATES, TEST_EVENT_KINDS } from "./kinds";

export const TestEventBody = z.strictObject({
  kind: z.enum(TEST_EVENT_KINDS, { message: `One of ${TEST_EVENT_KINDS.join(", ")}` }),
});

export const DeliveriesQuery = z.object({
  limit: z.coerce.number().int("limit must be a whole number").min(1).max(1000).default(100),
});

/** The portal's delivery log: a page after `cursor`, optionally one webhook's and/or one state's deliveries. */
export const DeliveryPageQuery = z.object({
  cursor: z.string().max(500).optional(),
  webhook_id: z.string().max(64).optional(),
  state: z.enum(DELIVERY_STATES, { message: `One of ${DELIVERY_STATES.join(", ")}` }).optional(),
  limit: z.coerce.number().int("limit must be a whole number").min(1).max(100).optional(),
});

/** Registering a webhook: the URL itself is checked by createWebhookEndpoint (webhookUrlSchema, per environment). */
export const RegisterWebhookBody = z.strictObject({ url: z.string().max(2000, "Webhook URL must be at most 2000 characters") });

/** Disabling or enabling a webhook (PATCH .../webhooks/{id}): `active` only. */
export const SetWebhookActiveBody = z.strictObject({
  active: z.boolean({ message: "active must be true (enable) or false (disable)" }),
});
