import { env } from "@/lib/config/env";
import { logger } from "@/lib/log/logger";
import { formatNetwork, parseNetworkList, type IpNetwork } from "@/lib/net/safe-address";
import { processSlot } from "@/lib/process-slots";

const webhookNetworksSlot = processSlot<{ source: string; networks: IpNetwork[] }>("webhookNetworks");

/**
 * The private networks webhooks (of test and production apps) may reach anyway
 * (WEBHOOK_ALLOWED_NETWORKS, validated at start-up by lib/config/env.ts).
 */
export function allowedWebhookNetworks(): IpNetwork[] {
  const source = env().WEBHOOK_ALLOWED_NETWORKS;
  const cached = webhookNetworksSlot.value;
  if (cached?.source === source) return cached.networks;
  const { networks } = parseNetworkList(source);
  webhookNetworksSlot.value = { source, networks };
  return networks;
}

/** Logs, once at start-up, where webhooks may go besides public addresses. */
export function logWebhookDestinationPolicy() {
  logger.info("webhooks (test and production apps) reach public addresses and these allowed networks", {
    webhook_allowed_networks: allowedWebhookNetworks().map(formatNetwork),
  });
}
