import { randomBytes } from "node:crypto";
import { api, createSession, createWorkflow, keyHeader, type ApiResponse, type Tenant } from "./api";
import { seedSession } from "./review-sessions";
import { randomTemplate, seededRandom } from "./synthetic-faces";

/**
 * One resource of every kind a path parameter of the public API names, made
 * for one tenant the cheapest way the product allows (for the tenant
 * isolation sweep, tests/integration/tenant-isolation.test.ts): over the API
 * where the API makes it, else through the domain functions the check
 * executors, the admin CLI and the portal call (the test file must call
 * useServerDatabase(), tests/support/domain.ts). Every name, email and
 * vendor_data carries a random tag, so a leak of any of them into another
 * tenant's answer can be searched for as text.
 */
export type TenantResources = {
  tag: string;
  /** `liveness`: the sessions below are of this one. */
  workflowId: string;
  /** `face_uniqueness`: needed to unlink a face (else 403 feature_not_allowed). */
  faceWorkflowId: string;
  workflowNames: string[];
  /** IN_REVIEW (a `review` liveness result, finished by the decision engine). */
  reviewSession: { id: string; vendorData: string };
  /** APPROVED, bound to `account`: its proofs (a face) are shared with the app (GET /api/v2/identity). */
  approvedSession: { id: string; token: string; vendorData: string };
  /** NOT_STARTED, of the face_uniqueness workflow, with the face `faceId` enrolled in the app's gallery. */
  faceSession: { id: string; token: string; vendorData: string };
  /** The svc_uuid of the enrolled face (DELETE /api/v2/face-uniqueness/{svc_uuid}). */
  faceId: string;
  account: { id: string; email: string };
  webhook: { id: string; url: string; secret: string };
  /** A delivery of a test event to `webhook` (lib/webhooks/test-events.ts, as `webhook:test` makes it). */
  delivery: { id: string; eventId: string };
  /** Added by POST /api/sdk/members (invite face, not notified): `link_sent`, unbound. */
  invitedMember: { memberId: string; email: string; lastName: string };
  /** Bound to `account` by POST /api/sdk/members/bind: `active`, a seat, eligible for account recovery. */
  boundMember: { memberId: string; email: string; lastName: string };
};

export const clientHeaders = (t: Pick<Tenant, "clientId" | "clientSecret">) => ({ "X-Client-Id": t.clientId, "X-Client-Secret": t.clientSecret });

/** A unit face template of the vision model's size (1,024), as the gallery stores them. */
function syntheticFace(seed: number) {
  return { embedding: [...randomTemplate(seededRandom(seed))], model: "synthetic", source_sha256: randomBytes(32).toString("hex") };
}

/**
 * Another app of `t`'s organization (createApp, as `app:create` runs it), by
 * default in the test environment: the README's "a resource of another app
 * (including the same organization's app in the other environment) is a 404".
 */
export async function createSiblingApp(t: Tenant, environment: "test" | "production" = "test"): Promise<Tenant> {
  const { createApp } = await import("@/lib/tenancy/create-app");
  const app = await createApp({ organizationId: t.organizationId, name: "Sibling app", environment });
  return { ...t, appId: app.appId, apiKey: app.apiKey, clientId: app.clientId, clientSecret: app.clientSecret };
}

export async function seedTenantResources(t: Tenant): Promise<TenantResources> {
  const tag = randomBytes(5).toString("hex");
  const { db } = await import("@/lib/db/client");
  const { createWebhookEndpoint } = await import("@/lib/tenancy/webhook-endpoints");
  const { sendTestEvent } = await import("@/lib/webhooks/test-events");
  const { signInAccountByEmail } = await import("@/lib/accounts/accounts");
  const { saveJsonArtifact } = await import("@/lib/artifacts/artifacts");
  const { recordCheckResult } = await import("@/lib/sessions/record-check");
  const { completeSession } = await import("@/lib/sessions/complete-session");
  const { enrollFace } = await import("@/lib/faces/gallery");
  const prisma = await db();

  // An approved HTTPS webhook (a production app's rule): the app's events go
  // there, it may be a session's callback, and account recovery needs one.
  const hook = await createWebhookEndpoint({ appId: t.appId, url: `https://hooks.example/tenant-${tag}`, approve: true });

  const workflowNames = [`iso-${tag}-liveness`, `iso-${tag}-face`];
  const workflowId = await createWorkflow(t, ["liveness"], { name: workflowNames[0] });
  const faceWorkflowId = await createWorkflow(t, ["face_uniqueness"], { name: workflowNames[1] });

  const reviewVendorData = `iso-${tag}-review`;
  const reviewId = await seedSession(t, workflowId, { vendorData: reviewVendorData, results: { liveness: "review" } });
  const reviewStatus = (await prisma.session.findUniqueOrThrow({ where: { id: reviewId } })).status;
  if (reviewStatus !== "IN_REVIEW") throw new Error(`the review session ended ${reviewStatus}, not IN_REVIEW`);

  // A person's account whose face proof the app holds: the session is bound
  // to the account (what `svc_access_token` does at creation), its liveness
  // passes with the selfie's template kept, and the decision engine approves
  // it, which saves the proofs and the share (lib/identity/proofs.ts).
  const account = await signInAccountByEmail(`person-${tag}@example.com`);
  const approvedVendorData = `iso-${tag}-approved`;
  const approved = await createSession(t, { workflow_id: workflowId, vendor_data: approvedVendorData });
  await prisma.session.update({ where: { id: approved.session_id }, data: { accountId: account.id } });
  await saveJsonArtifact(approved.session_id, "selfie_template", syntheticFace(Number.parseInt(tag.slice(0, 8), 16)));
  await recordCheckResult({ sessionId: approved.session_id, type: "liveness", status: "passed", score: 0.97, data: {} });
  const settled = await completeSession(approved.session_id);
  if (settled.status !== "APPROVED") throw new Error(`the bound session ended ${settled.status}, not APPROVED`);

  // A face in the app's 1:N gallery, enrolled by an open session as the
  // face_uniqueness step enrolls it (lib/checks/run-face-uniqueness.ts),
  // from a synthetic template: the vision pipeline adds nothing to isolation.
  const faceVendorData = `iso-${tag}-face`;
  const face = await createSession(t, { workflow_id: faceWorkflowId, vendor_data: faceVendorData });
  const faceId = await enrollFace(t.appId, face.session_id, syntheticFace(Number.parseInt(tag.slice(2, 10), 16) + 1));

  const sent = await sendTestEvent(t.appId, hook.webhookId, "approved");
  const log = await api("GET", "/api/v2/webhooks/deliveries?limit=1000", { headers: keyHeader(t) });
  const delivery = (log.body?.data?.deliveries ?? []).find((d: { event_id: string }) => d.event_id === sent.event_id);
  if (!delivery) throw new Error(`the test event's delivery is not in the log: ${log.status} ${log.text.slice(0, 300)}`);

  const invited = { email: `invited-${tag}@example.com`, lastName: `Invited${tag}` };
  const added = await api("POST", "/api/sdk/members", {
    headers: clientHeaders(t),
    json: { members: [{ email: invited.email, first_name: "Ada", last_name: invited.lastName }], invite: "face", notify: false },
  });
  if (added.status !== 201 || added.body.data.created.length !== 1) throw new Error(`adding a member failed: ${added.status} ${added.text}`);

  const bound = { email: `bound-${tag}@example.com`, lastName: `Bound${tag}` };
  const bind = await api("POST", "/api/sdk/members/bind", {
    headers: clientHeaders(t),
    json: { svcId: account.id, email: bound.email, firstName: "Grace", lastName: bound.lastName },
  });
  if (bind.status !== 200 || bind.body.data.member.status !== "active") throw new Error(`binding a member failed: ${bind.status} ${bind.text}`);

  return {
    tag,
    workflowId,
    faceWorkflowId,
    workflowNames,
    reviewSession: { id: reviewId, vendorData: reviewVendorData },
    approvedSession: { id: approved.session_id, token: approved.session_token, vendorData: approvedVendorData },
    faceSession: { id: face.session_id, token: face.session_token, vendorData: faceVendorData },
    faceId,
    account: { id: account.id, email: account.email },
    webhook: { id: hook.webhookId, url: hook.url, secret: hook.secret },
    delivery: { id: delivery.delivery_id, eventId: sent.event_id },
    invitedMember: { memberId: added.body.data.created[0].member_id, ...invited },
    boundMember: { memberId: bind.body.data.member.member_id, ...bound },
  };
}

/**
 * Every text that identifies `t` or one of its resources: an answer given to
 * another tenant must contain none of them (except what that request itself
 * carried). Member row numbers (`id`, an integer) are left out: as text they
 * match any number.
 */
export function identifyingTexts(t: Tenant, r: TenantResources): string[] {
  return [
    t.developerId,
    t.organizationId,
    t.appId,
    t.apiKey,
    t.clientId,
    t.clientSecret,
    r.tag,
    r.workflowId,
    r.faceWorkflowId,
    ...r.workflowNames,
    r.reviewSession.id,
    r.reviewSession.vendorData,
    r.approvedSession.id,
    r.approvedSession.token,
    r.approvedSession.vendorData,
    r.faceSession.id,
    r.faceSession.token,
    r.faceSession.vendorData,
    r.faceId,
    r.account.id,
    r.account.email,
    r.webhook.id,
    r.webhook.url,
    r.webhook.secret,
    r.delivery.id,
    r.delivery.eventId,
    r.invitedMember.memberId,
    r.invitedMember.email,
    r.invitedMember.lastName,
    r.boundMember.memberId,
    r.boundMember.email,
    r.boundMember.lastName,
  ].filter((s) => s !== "");
}

/** The three ways a path names one of the tenant's members (spec 2.7): member_id, email, svc_id. */
export const MEMBER_REFS: Array<{ label: string; ref: (r: TenantResources) => string }> = [
  { label: "an invited member by member_id", ref: (r) => r.invitedMember.memberId },
  { label: "an invited member by email", ref: (r) => r.invitedMember.email },
  { label: "a bound member by svc_id", ref: (r) => r.account.id },
];

/** Which of `texts` an answer (headers and body) carries that its own request (`request`, as text) did not. */
export function leakedTexts(res: ApiResponse, request: string, texts: string[]): string[] {
  const answer = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${res.text}`;
  return texts.filter((text) => !request.includes(text) && answer.includes(text));
}
