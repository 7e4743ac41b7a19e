import { receiveWebhook } from "@/lib/verification";

/** POST /api/webhooks: register `${APP_URL}/api/webhooks` as the app's webhook. */
export function POST(request: Request) {
  return receiveWebhook(request);
}
