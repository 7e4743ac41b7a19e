import { createAccountReader, createVerificationClient, handleWebhookRequest, MemoryDedupStore, type VerifiedEvent } from "@svc-identity/sdk";
import { appLink, config } from "./config";
import { recordDecision, rememberSession } from "./store";

/**
 * The verification service through its SDK: sessions with the API key (the
 * SDK retries 429/5xx with one Idempotency-Key per call), the signed webhook,
 * and the person's verified status read with their access token.
 */
function verificationClient() {
  const { serviceUrl, apiKey } = config();
  return createVerificationClient({ baseUrl: serviceUrl.origin, apiKey });
}

export class ServiceError extends Error {}

/** Creates a hosted session for the signed-in person (vendor_data = their OIDC subject); returns the hosted page's URL. */
export async function startVerification(personSub: string): Promise<string> {
  const { data, error, response } = await verificationClient().POST("/api/v2/session", {
    body: { workflow_id: config().workflowId, vendor_data: personSub, redirect_url: appLink("/").href },
  });
  if (!data) throw new ServiceError(`The verification service refused the session (${response.status} ${error?.error.code ?? ""})`);
  rememberSession(personSub, data.data.session_id);
  return data.data.url;
}

const dedup = new MemoryDedupStore();

/**
 * POST /api/webhooks: the SDK checks the signature and the timestamp (300
 * seconds) and runs `onEvent` once per event id. The event is a notification:
 * the decision itself is read from the API.
 */
export function receiveWebhook(request: Request): Promise<Response> {
  return handleWebhookRequest(request, {
    secret: config().webhookSecret,
    store: dedup,
    toleranceSeconds: 300,
    onEvent: recordDecisionOf,
  });
}

async function recordDecisionOf(event: VerifiedEvent): Promise<void> {
  if (event.test) return; // simulated events from the portal's test tooling name no real session
  const { data } = await verificationClient().GET("/api/v2/session/{id}/decision", { params: { path: { id: event.session_id } } });
  recordDecision({
    sessionId: event.session_id,
    status: data?.data.status ?? event.status,
    checks: (data?.data.checks ?? []).map((c) => ({ type: c.type, status: c.status })),
    eventId: event.event_id,
    receivedAt: new Date().toISOString(),
  });
}

/** What the provider says the person has verified (scope `verifications`); null when it cannot be read. */
export async function verifiedStatus(accessToken: string) {
  const { data } = await createAccountReader({ baseUrl: config().serviceUrl.origin, accessToken, maxRetries: 1 }).verifications();
  return data?.data.verifications ?? null;
}
