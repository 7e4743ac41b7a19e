import { beforeAll, describe, expect, it } from "vitest";
import { api, createWorkflow, shared, type ApiResponse, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { logoForm, pngImage, portalApp, portalIdentifyingTexts, seedPortalResources, type PortalResources } from "../support/portal-resources";
import { servedRoutes } from "../support/route-files";
import { leakedTexts, MEMBER_REFS } from "../support/tenant-resources";

/**
 * Tenant isolation of the developer portal (issue 19, second part): for
 * every method of every route file under app/api/portal (read from the file
 * tree, tests/support/route-files.ts), a signed-in developer of another
 * organization never reaches developer A's apps or their resources. Each
 * route needs an entry in SWEEP below, keyed `METHOD /path/{param}`, or the
 * first test fails: a new portal route is swept or consciously excluded.
 *
 * - A route under /api/portal/apps/{appId} is called by developer B with
 *   A's app id and A's other ids (axis a): 404 `not_found` (the one portal
 *   guard, lib/portal/access.ts findAppOfDeveloper). Then through B's own
 *   app, and through A's own app of the other environment (README "API
 *   conventions": another app of the same organization is as foreign), with
 *   A's resource ids (axis b): the resource's own 404 code. A route whose
 *   only parameter is the app is called on the outsider's own app with the
 *   same request (A's ids in its query or body where it takes any): it
 *   answers for that app, with nothing of A's.
 * - An organization route (roster, billing, wallet, recovery log, the app
 *   list) takes the organization from the session: B names A's members in
 *   the path (404, or what docs/organization-api.md says) or A's member's
 *   email in the body, and sees nothing of A.
 * - Every answer to an outsider contains none of A's ids, names, emails,
 *   vendor_data, URLs or key prefixes except what its own request carried,
 *   and is never a 500.
 * - Then A's resources are read again (through A's portal session and, for
 *   secrets that are never shown again, the database) and must be
 *   unchanged; and the same calls by A on its own app succeed (the guard's
 *   success side): reads first, then writes, deletions last.
 *
 * Runs on the shared production server; A's and B's apps are production
 * apps (A's sibling is its test app).
 */
useServerDatabase();

// ---------------------------------------------------------------------------
// The route table

const PORTAL = "app/api/portal";
const routes = (await servedRoutes(PORTAL)).map((route) => `${route.method} ${route.path}`).sort();

/** The kinds of A's resources a portal path parameter (other than the app) names. */
type Kind = "key" | "session" | "image" | "check" | "webhook" | "delivery" | "workflow" | "member";

/** Each kind's resources of A that outsiders try; the owner's control uses the first. */
const VARIANTS: Record<Kind, Array<{ label: string; ref: (r: PortalResources) => string }>> = {
  key: [{ label: "a second API key", ref: (r) => r.key.id }],
  session: [
    { label: "an IN_REVIEW session with kept images", ref: (r) => r.reviewSession.id },
    { label: "an APPROVED session bound to an account", ref: (r) => r.approvedSession.id },
  ],
  image: [{ label: "document_front", ref: () => "document_front" }],
  check: [{ label: "liveness", ref: () => "liveness" }],
  webhook: [
    { label: "a webhook waiting for approval", ref: (r) => r.pendingWebhook.id },
    { label: "an approved webhook", ref: (r) => r.webhook.id },
  ],
  delivery: [{ label: "a test event's delivery", ref: (r) => r.delivery.id }],
  workflow: [
    { label: "a liveness workflow", ref: (r) => r.workflowId },
    { label: "a face_uniqueness workflow", ref: (r) => r.faceWorkflowId },
  ],
  member: MEMBER_REFS,
};

/** What a route answers for another app's resource of each kind (the domain function's 404). */
const NOT_FOUND: Record<Exclude<Kind, "image" | "check" | "member">, string> = {
  key: "not_found",
  session: "session_not_found",
  webhook: "not_found",
  delivery: "not_found",
  workflow: "workflow_not_found",
};

type Check = (res: ApiResponse, r: PortalResources) => void;
type Request = { query?: (r: PortalResources) => string; json?: (r: PortalResources) => unknown; form?: () => Promise<FormData> };

type AppEntry = Request & {
  kind: "app";
  /** The resource each path parameter besides {appId} names. */
  params: Record<string, Kind>;
  /** The owner's answer on its own app: it found the resource (and acted on it). */
  owner: { status: number; check?: Check };
  /** A route without other parameters, called by an outsider on its own app: its status (the owner's by default) and what it must (not) show. */
  ownApp?: { status?: number; check?: Check };
};
type Probe = Request & { label: string; outsider: Check; owner: Check };
type OrganizationEntry = {
  kind: "organization";
  /** The path names A's member ({member_id}); B gets 404 `not_found` unless `refusal` says otherwise. */
  params: Record<string, "member">;
  refusal?: { status: number; check: Check };
  owner: { status: number; check?: Check };
};
type ReferenceEntry = { kind: "reference"; probes: Probe[] };
type Excluded = { kind: "excluded"; why: string };
type Entry = AppEntry | OrganizationEntry | ReferenceEntry | Excluded;

const ok = (status = 200): Check => (res) => expect(res.status, res.text.slice(0, 300)).toBe(status);
/** The session ids of a sessions page (`{ session_id }`) or of the review queue (`{ session: { session_id } }`). */
const sessionIdsOf = (data: { sessions: Array<{ session_id?: string; session?: { session_id: string } }> }) => data.sessions.map((s) => s.session_id ?? s.session!.session_id);
const sessionIds = (res: ApiResponse) => sessionIdsOf(res.body.data);

const SWEEP: Record<string, Entry> = {
  // --- sign-in, sign-up, password reset: no session, no tenant's resource
  "GET /api/portal/auth/{...nextauth}": { kind: "excluded", why: "next-auth's own endpoints (csrf, session, sign-in): no developer session yet, names no tenant's resource" },
  "POST /api/portal/auth/{...nextauth}": { kind: "excluded", why: "next-auth's sign-in and sign-out: a developer's own email and password, names no tenant's resource" },
  "POST /api/portal/sign-up": { kind: "excluded", why: "makes a new developer and organization; a taken email is 409 to anyone (portal-api.test.ts)" },
  "POST /api/portal/password-reset": { kind: "excluded", why: "unauthenticated; 202 whether or not the email has an account (portal-api.test.ts), so it tells nobody anything" },
  "POST /api/portal/password-reset/confirm": { kind: "excluded", why: "unauthenticated; acts on the single-use token of a reset link only" },
  "POST /api/portal/email-verification": { kind: "excluded", why: "mails a new verification link to the signed-in developer's own email; names no resource (portal-api.test.ts)" },
  "POST /api/portal/email-verification/confirm": { kind: "excluded", why: "unauthenticated; acts on the single-use token of a verification link only (portal-api.test.ts)" },

  // --- the organization's apps
  "GET /api/portal/apps": {
    kind: "reference",
    probes: (["production", "test"] as const).map((environment) => ({
      label: `the ${environment} apps`,
      query: () => `?environment=${environment}`,
      outsider: (res) => {
        expect(res.status).toBe(200);
        expect(res.body.data.apps.map((x: { id: string }) => x.id)).not.toContain(a.appId);
      },
      owner: (res) => {
        expect(res.status).toBe(200);
        expect(res.body.data.apps.map((x: { id: string }) => x.id)).toContain(environment === "production" ? a.appId : aTest.appId);
      },
    })),
  },
  "POST /api/portal/apps": { kind: "excluded", why: "makes an app in the caller's own organization (from the session) and names nothing that exists" },
  "GET /api/portal/apps/{appId}": {
    kind: "app",
    params: {},
    owner: { status: 200, check: (res) => expect(res.body.data.app).toMatchObject({ id: a.appId, client_id: a.clientId, logo: expect.stringMatching(/^data:image\/png/) }) },
  },
  "PATCH /api/portal/apps/{appId}": {
    kind: "app",
    params: {},
    json: () => ({ name: "Renamed by the caller" }),
    owner: { status: 200, check: (res) => expect(res.body.data.app).toMatchObject({ id: a.appId, name: "Renamed by the caller" }) },
  },
  "PUT /api/portal/apps/{appId}/logo": {
    kind: "app",
    params: {},
    form: async () => logoForm(await pngImage(48)),
    owner: { status: 200, check: (res) => expect(res.body.data).toMatchObject({ app_id: a.appId, logo_bytes: expect.any(Number) }) },
  },
  "DELETE /api/portal/apps/{appId}/logo": {
    kind: "app",
    params: {},
    owner: { status: 200, check: (res) => expect(res.body.data).toEqual({ app_id: a.appId, logo_bytes: 0 }) },
  },

  // --- API keys
  "GET /api/portal/apps/{appId}/keys": {
    kind: "app",
    params: {},
    owner: { status: 200, check: (res, r) => expect(res.body.data.keys.map((k: { id: string }) => k.id)).toContain(r.key.id) },
  },
  "POST /api/portal/apps/{appId}/keys": {
    kind: "app",
    params: {},
    json: () => ({ name: "made by the caller" }),
    owner: { status: 201, check: (res) => expect(res.body.data).toMatchObject({ name: "made by the caller", api_key: expect.any(String) }) },
  },
  "POST /api/portal/apps/{appId}/keys/{keyId}/roll": {
    kind: "app",
    params: { keyId: "key" },
    json: () => ({ expire_previous_in: 3600 }),
    owner: {
      status: 201,
      check: (res, r) => expect(res.body.data).toMatchObject({ api_key: expect.any(String), previous: { id: r.key.id, prefix: r.key.prefix, expires_at: expect.any(String) } }),
    },
  },
  "DELETE /api/portal/apps/{appId}/keys/{keyId}": {
    kind: "app",
    params: { keyId: "key" },
    owner: { status: 200, check: (res, r) => expect(res.body.data).toEqual({ id: r.key.id, prefix: r.key.prefix, revoked: true }) },
  },

  // --- the OIDC client
  "GET /api/portal/apps/{appId}/oidc": {
    kind: "app",
    params: {},
    owner: { status: 200, check: (res, r) => expect(res.body.data).toMatchObject({ client_id: a.clientId, redirect_uris: [r.redirectUri] }) },
  },
  "PATCH /api/portal/apps/{appId}/oidc": {
    kind: "app",
    params: {},
    json: () => ({ scopes: ["openid"] }),
    owner: { status: 200, check: (res) => expect(res.body.data).toMatchObject({ client_id: a.clientId, scopes: ["openid"] }) },
  },
  "POST /api/portal/apps/{appId}/oidc/redirect-uris": {
    kind: "app",
    params: {},
    json: () => ({ uri: "https://caller.example/callback" }),
    owner: { status: 200, check: (res, r) => expect(res.body.data.redirect_uris).toEqual([r.redirectUri, "https://caller.example/callback"]) },
  },
  "DELETE /api/portal/apps/{appId}/oidc/redirect-uris": {
    kind: "app",
    params: {},
    // A's registered URI: removing it from the outsider's own app changes nothing there (and nothing of A's).
    json: (r) => ({ uri: r.redirectUri }),
    owner: { status: 200, check: (res, r) => expect(res.body.data.redirect_uris).not.toContain(r.redirectUri) },
  },
  "POST /api/portal/apps/{appId}/oidc/secret": {
    kind: "app",
    params: {},
    owner: { status: 200, check: (res) => expect(res.body.data).toMatchObject({ client_id: a.clientId, client_secret: expect.any(String) }) },
  },

  // --- sessions and the review queue
  "GET /api/portal/apps/{appId}/sessions": {
    kind: "app",
    params: {},
    query: (r) => `?vendor_data=${encodeURIComponent(r.reviewSession.vendorData)}`,
    ownApp: { check: (res) => expect(res.body.data.sessions).toEqual([]) },
    owner: { status: 200, check: (res, r) => expect(sessionIds(res)).toEqual([r.reviewSession.id]) },
  },
  "GET /api/portal/apps/{appId}/sessions/review-queue": {
    kind: "app",
    params: {},
    owner: { status: 200, check: (res, r) => expect(sessionIds(res)).toContain(r.reviewSession.id) },
  },
  "GET /api/portal/apps/{appId}/sessions/{sessionId}": {
    kind: "app",
    params: { sessionId: "session" },
    owner: {
      status: 200,
      check: (res, r) => expect(res.body.data).toMatchObject({ session: { session_id: r.reviewSession.id, status: "IN_REVIEW", vendor_data: r.reviewSession.vendorData } }),
    },
  },
  "GET /api/portal/apps/{appId}/sessions/{sessionId}/images/{kind}": {
    kind: "app",
    params: { sessionId: "session", kind: "image" },
    owner: { status: 200, check: (res) => expect(res.headers.get("content-type")).toBe("image/jpeg") },
  },
  "POST /api/portal/apps/{appId}/sessions/{sessionId}/checks/{type}/review": {
    kind: "app",
    params: { sessionId: "session", type: "check" },
    json: () => ({ status: "passed", reason: "Live person in every frame" }),
    owner: { status: 200, check: (res, r) => expect(res.body.data).toMatchObject({ check: { type: "liveness", status: "passed" }, session: { session_id: r.reviewSession.id, status: "IN_REVIEW" } }) },
  },
  "PATCH /api/portal/apps/{appId}/sessions/{sessionId}/status": {
    kind: "app",
    params: { sessionId: "session" },
    json: () => ({ status: "DECLINED" }),
    owner: { status: 200, check: (res, r) => expect(res.body.data).toMatchObject({ session_id: r.reviewSession.id, status: "DECLINED" }) },
  },

  // --- webhooks and deliveries
  "GET /api/portal/apps/{appId}/webhooks": {
    kind: "app",
    params: {},
    owner: { status: 200, check: (res, r) => expect(res.body.data.webhooks.map((w: { webhook_id: string }) => w.webhook_id)).toEqual(expect.arrayContaining([r.webhook.id, r.pendingWebhook.id])) },
  },
  "POST /api/portal/apps/{appId}/webhooks": {
    kind: "app",
    params: {},
    // A's URL: anyone may register any URL for its own app; it stays the caller's, unapproved.
    json: (r) => ({ url: r.webhook.url }),
    ownApp: { check: (res) => expect(res.body.data).toMatchObject({ approved: false }) },
    owner: { status: 201, check: (res, r) => expect(res.body.data).toMatchObject({ url: r.webhook.url, approved: false }) },
  },
  "PATCH /api/portal/apps/{appId}/webhooks/{webhookId}": {
    kind: "app",
    params: { webhookId: "webhook" },
    json: () => ({ active: false }),
    owner: { status: 200, check: (res, r) => expect(res.body.data.webhook).toMatchObject({ webhook_id: r.pendingWebhook.id, active: false }) },
  },
  "DELETE /api/portal/apps/{appId}/webhooks/{webhookId}": {
    kind: "app",
    params: { webhookId: "webhook" },
    owner: {
      status: 200,
      check: (res, r) => expect(res.body.data).toEqual({ webhook_id: r.pendingWebhook.id, deleted: true, cancelled_deliveries: expect.any(Number) }),
    },
  },
  "POST /api/portal/apps/{appId}/webhooks/{webhookId}/approve": {
    kind: "app",
    params: { webhookId: "webhook" },
    owner: { status: 200, check: (res, r) => expect(res.body.data.webhook).toMatchObject({ webhook_id: r.pendingWebhook.id, approved: true }) },
  },
  "POST /api/portal/apps/{appId}/webhooks/{webhookId}/secret": {
    kind: "app",
    params: { webhookId: "webhook" },
    owner: { status: 200, check: (res, r) => expect(res.body.data).toMatchObject({ webhook_id: r.pendingWebhook.id, secret: expect.any(String) }) },
  },
  "POST /api/portal/apps/{appId}/webhooks/{webhookId}/test": {
    kind: "app",
    params: { webhookId: "webhook" },
    json: () => ({ kind: "approved" }),
    owner: { status: 202, check: (res) => expect(res.body.data).toMatchObject({ kind: "approved", deliveries: 1 }) },
  },
  "GET /api/portal/apps/{appId}/webhooks/deliveries": {
    kind: "app",
    params: {},
    query: (r) => `?webhook_id=${r.webhook.id}&limit=100`,
    ownApp: { check: (res) => expect(res.body.data.deliveries).toEqual([]) },
    owner: { status: 200, check: (res, r) => expect(res.body.data.deliveries.map((d: { delivery_id: string }) => d.delivery_id)).toContain(r.delivery.id) },
  },
  "POST /api/portal/apps/{appId}/webhooks/deliveries/{deliveryId}/resend": {
    kind: "app",
    params: { deliveryId: "delivery" },
    owner: { status: 202, check: (res, r) => expect(res.body.data).toMatchObject({ resent_from: r.delivery.id, event_id: r.delivery.eventId }) },
  },

  // --- workflows
  "GET /api/portal/apps/{appId}/workflows": {
    kind: "app",
    params: {},
    owner: { status: 200, check: (res, r) => expect(res.body.data.workflows.map((w: { id: string }) => w.id)).toEqual(expect.arrayContaining([r.workflowId, r.faceWorkflowId])) },
  },
  "POST /api/portal/apps/{appId}/workflows": {
    kind: "app",
    params: {},
    json: (r) => ({ name: r.workflowNames[0], features: ["liveness"] }),
    owner: { status: 201, check: (res) => expect(res.body.data.workflow).toMatchObject({ features: ["liveness"] }) },
  },
  "GET /api/portal/apps/{appId}/workflows/{workflowId}": {
    kind: "app",
    params: { workflowId: "workflow" },
    owner: { status: 200, check: (res, r) => expect(res.body.data.workflow).toMatchObject({ id: r.workflowId, name: r.workflowNames[0] }) },
  },
  "PATCH /api/portal/apps/{appId}/workflows/{workflowId}": {
    kind: "app",
    params: { workflowId: "workflow" },
    json: () => ({ name: "renamed by the caller" }),
    owner: { status: 200, check: (res, r) => expect(res.body.data.workflow).toMatchObject({ id: r.workflowId, name: "renamed by the caller" }) },
  },
  "DELETE /api/portal/apps/{appId}/workflows/{workflowId}": {
    kind: "app",
    params: { workflowId: "workflow" },
    owner: { status: 200, check: (res) => expect(res.body.data).toEqual({ deleted: true }) },
  },
  "POST /api/portal/apps/{appId}/workflows/{workflowId}/test-session": {
    kind: "app",
    params: { workflowId: "workflow" },
    owner: { status: 201, check: (res) => expect(res.body.data).toMatchObject({ session_id: expect.any(String), url: expect.any(String) }) },
  },

  // --- the organization: roster, billing, recovery log, wallet
  "GET /api/portal/organization/members": {
    kind: "reference",
    probes: [
      {
        label: "the roster",
        outsider: ok(),
        owner: (res, r) => {
          ok()(res, r);
          expect(res.body.data.members.map((m: { member_id: string }) => m.member_id)).toEqual(expect.arrayContaining([r.invitedMember.memberId, r.boundMember.memberId]));
        },
      },
    ],
  },
  "POST /api/portal/organization/members": {
    kind: "reference",
    probes: [
      {
        // Anyone may invite any email, but the answer must not tell that A has it (a `duplicate` skip would).
        label: "A's member's email",
        json: (r) => ({ members: [{ email: r.boundMember.email }] }),
        outsider: (res, r) => {
          expect(res.status, res.text).toBe(201);
          expect(res.body.data.skipped).toEqual([]);
          expect(res.body.data.created).toHaveLength(1);
          expect(res.body.data.created[0]).toMatchObject({ email: r.boundMember.email, svc_id: null });
          expect(res.body.data.created[0].member_id).not.toBe(r.boundMember.memberId);
        },
        owner: (res, r) => {
          expect(res.status, res.text).toBe(201);
          expect(res.body.data).toMatchObject({ created: [], skipped: [{ email: r.boundMember.email, reason: "duplicate" }] });
        },
      },
    ],
  },
  "POST /api/portal/organization/members/{member_id}/invite": {
    kind: "organization",
    params: { member_id: "member" },
    owner: { status: 200, check: (res, r) => expect(res.body.data.member).toMatchObject({ member_id: r.invitedMember.memberId, status: "link_sent" }) },
  },
  "POST /api/portal/organization/members/{member_id}/deactivate": {
    kind: "organization",
    params: { member_id: "member" },
    owner: { status: 200, check: (res, r) => expect(res.body.data.member).toMatchObject({ member_id: r.invitedMember.memberId, status: "deactivated" }) },
  },
  "POST /api/portal/organization/members/{member_id}/reactivate": {
    kind: "organization",
    params: { member_id: "member" },
    // Deactivated just before: an unbound member comes back `invited`.
    owner: { status: 200, check: (res, r) => expect(res.body.data.member).toMatchObject({ member_id: r.invitedMember.memberId, status: "invited" }) },
  },
  "DELETE /api/portal/organization/members/{member_id}": {
    kind: "organization",
    params: { member_id: "member" },
    // Removing an absent member is not an error (docs/organization-api.md): the outsider's roster has none.
    refusal: { status: 200, check: (res) => expect(res.body.data).toEqual({ member: null, already_removed: true }) },
    owner: { status: 200, check: (res) => expect(res.body.data).toMatchObject({ member: null, removed: true }) },
  },
  "GET /api/portal/organization/billing": {
    kind: "reference",
    probes: [
      {
        // A's bound member is active: a seat of A's organization, never of anyone else's.
        label: "seats and balance",
        outsider: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.data.seats).toBe(0);
        },
        owner: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.data.seats).toBe(1);
        },
      },
    ],
  },
  "GET /api/portal/organization/recovery": {
    kind: "reference",
    probes: [
      {
        label: "the recovery log",
        outsider: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.data.entries).toEqual([]);
        },
        owner: (res, r) => {
          expect(res.status).toBe(200);
          expect(res.body.data.entries.map((e: { session_id: string }) => e.session_id)).toContain(r.recoverySessionId);
        },
      },
    ],
  },
  "GET /api/portal/wallet": {
    kind: "reference",
    probes: [
      {
        // A's wallet has paid for A's checks; the outsider's is its welcome credit only.
        label: "balance and ledger",
        outsider: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.data.entries.map((e: { cause: { kind: string } }) => e.cause.kind)).toEqual(["welcome_credit"]);
        },
        owner: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.data.entries.length).toBeGreaterThan(1);
        },
      },
    ],
  },
  "POST /api/portal/wallet/top-up": {
    kind: "excluded",
    why: "the body is an amount only: the organization and the return pages come from the session and PUBLIC_BASE_URL (stripe-top-up.test.ts)",
  },
};

// ---------------------------------------------------------------------------
// The developers

let devA: PortalDeveloper;
let devB: PortalDeveloper;
let a: Tenant; // A's production app
let aTest: Tenant; // A's test app: another app of A's organization
let b: Tenant; // B's production app
let r: PortalResources;
let before: Awaited<ReturnType<typeof observeA>>;

type Outsider = { name: string; dev: () => PortalDeveloper; app: () => Tenant; texts: () => string[] };
/** Axis a (A's app id) is B's; axis b (an own app with A's resource ids) is B's own app and A's test app. */
const B: Outsider = { name: "B", dev: () => devB, app: () => b, texts: () => portalIdentifyingTexts(a, r) };
const A_TEST: Outsider = {
  name: "A through its test app",
  dev: () => devA,
  app: () => aTest,
  // The same organization and developer: only the production app's own texts are foreign there.
  texts: () => portalIdentifyingTexts(a, r).filter((t) => ![a.organizationId, a.developerId, r.developerEmail].includes(t)),
};

/** What A can see of its resources, through its portal session and (for secrets shown only once) the database. */
async function observeA() {
  const read = async (p: string) => {
    const res = await devA.call("GET", p);
    expect(res.status, `${p}: ${res.text.slice(0, 300)}`).toBe(200);
    return res.body.data;
  };
  const app = `/api/portal/apps/${a.appId}`;
  const { db } = await import("@/lib/db/client");
  const prisma = await db();
  return {
    app: await read(app),
    apps: await read("/api/portal/apps?environment=production"),
    keys: (await read(`${app}/keys`)).keys.map((k: Record<string, unknown>) => ({ ...k, last_used_at: undefined })),
    oidc: await read(`${app}/oidc`),
    clientSecretHash: (await prisma.app.findUniqueOrThrow({ where: { id: a.appId } })).clientSecretHash,
    sessions: sessionIdsOf(await read(`${app}/sessions`)).sort(),
    reviewSession: await read(`${app}/sessions/${r.reviewSession.id}`),
    queue: sessionIdsOf(await read(`${app}/sessions/review-queue`)),
    webhooks: await read(`${app}/webhooks`),
    webhookSecrets: (await prisma.webhookEndpoint.findMany({ where: { appId: a.appId }, orderBy: { id: "asc" } })).map((w) => [w.id, w.secretEncrypted]),
    // Only the ids: the worker may be attempting them meanwhile.
    deliveries: (await read(`${app}/webhooks/deliveries?limit=100`)).deliveries.map((d: { delivery_id: string }) => d.delivery_id).sort(),
    workflows: await read(`${app}/workflows`),
    members: await read("/api/portal/organization/members"),
    billing: await read("/api/portal/organization/billing"),
    recovery: await read("/api/portal/organization/recovery"),
    wallet: await read("/api/portal/wallet"),
  };
}

beforeAll(async () => {
  [devA, devB] = await Promise.all([signUpDeveloper(), signUpDeveloper()]);
  [a, aTest, b] = await Promise.all([portalApp(devA, "production", "A's shop"), portalApp(devA, "test", "A's test shop"), portalApp(devB, "production", "B's shop")]);
  r = await seedPortalResources(devA, a);
  await createWorkflow(b, ["liveness"]);
  before = await observeA();
  expect(before.billing.seats).toBe(1);
  expect(before.reviewSession.images).toEqual(["document_front", "selfie"]);
});

// ---------------------------------------------------------------------------
// The table covers every route

const pathParams = (p: string) => [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

describe("the portal's sweep table", () => {
  it("has an entry for every method of every route file under app/api/portal, and none for a route that is not served", () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.filter((route) => !SWEEP[route])).toEqual([]);
    expect(Object.keys(SWEEP).filter((route) => !routes.includes(route))).toEqual([]);
  });

  it("sweeps every path parameter as the resource it names, or excludes the route with a reason", () => {
    const wrong: string[] = [];
    for (const [route, entry] of Object.entries(SWEEP)) {
      const params = pathParams(route);
      if (entry.kind === "excluded") {
        if (entry.why.length < 20) wrong.push(`${route}: say why it is excluded`);
        continue;
      }
      const named = entry.kind === "app" ? ["appId", ...Object.keys(entry.params)] : entry.kind === "organization" ? Object.keys(entry.params) : [];
      if (JSON.stringify([...named].sort()) !== JSON.stringify([...params].sort())) wrong.push(`${route}: the path's parameters are ${params.join(", ")}, the entry's ${named.join(", ")}`);
      if (entry.kind === "app" && params[0] !== "appId") wrong.push(`${route}: an app route's first parameter is {appId}`);
    }
    expect(wrong).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// Outsiders

type Attempt = { name: string; run: () => Promise<void> };
type Call = { method: string; url: string; json?: unknown; form?: FormData };

/** The route's URL with {appId} = `appId` and the other parameters A's resources (variant `index`, else the first). */
function concreteUrl(route: string, entry: AppEntry | OrganizationEntry, appId: string, index: number, query = ""): string {
  const template = route.slice(route.indexOf(" ") + 1);
  return (
    template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (name === "appId") return appId;
      const variants = VARIANTS[entry.params[name]!];
      return encodeURIComponent((variants[index] ?? variants[0]!).ref(r));
    }) + query
  );
}

async function send(dev: PortalDeveloper, call: Call): Promise<ApiResponse> {
  return dev.call(call.method, call.url, { json: call.json, form: call.form });
}

async function callOf(route: string, entry: AppEntry | OrganizationEntry, appId: string, index: number): Promise<Call> {
  const request: Request = entry.kind === "app" ? entry : {};
  return {
    method: route.slice(0, route.indexOf(" ")),
    url: concreteUrl(route, entry, appId, index, request.query?.(r) ?? ""),
    json: request.json?.(r),
    form: await request.form?.(),
  };
}

/** An outsider's answer carries none of A's identifying texts, except those its own request carried; and it is never a server error. */
function expectNothingOf(res: ApiResponse, call: Call, texts: string[]) {
  const request = `${call.method} ${call.url} ${JSON.stringify(call.json ?? "")}`;
  expect(res.status, `${request} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
  expect(leakedTexts(res, request, texts), `${request} -> ${res.status} ${res.text.slice(0, 500)}`).toEqual([]);
}

function expectRefused(res: ApiResponse, call: Call, status: number, code: string) {
  expect(res.status, `${call.method} ${call.url} -> ${res.text.slice(0, 300)}`).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code } });
}

/** The variants an outsider tries on a route: one per resource of its (first non-app) parameter's kind, or one. */
const variantCount = (entry: AppEntry | OrganizationEntry) => {
  const kinds = Object.values(entry.params);
  return kinds.length ? Math.max(...kinds.map((k) => VARIANTS[k].length)) : 1;
};
const variantLabel = (entry: AppEntry | OrganizationEntry, index: number) =>
  Object.values(entry.params)
    .map((k) => (VARIANTS[k][index] ?? VARIANTS[k][0]!).label)
    .join(", ") || "the app itself";

function appAttempts(route: string, entry: AppEntry): Attempt[] {
  const indexes = [...Array(variantCount(entry)).keys()];
  // Axis a: B with A's app id (and A's other ids): the one portal guard's 404.
  const withAppOfA = indexes.map((index) => ({
    name: `${route}: B with A's app id, ${variantLabel(entry, index)}`,
    run: async () => {
      const call = await callOf(route, entry, a.appId, index);
      const res = await send(devB, call);
      expectRefused(res, call, 404, "not_found");
      expectNothingOf(res, call, B.texts());
    },
  }));
  // Axis b: an outsider's own app with A's resource ids (or, without any, the same request on its own app).
  const throughOwnApp = [B, A_TEST].flatMap((who) =>
    indexes.map((index) => ({
      name: `${route}: ${who.name}, its own app ${Object.keys(entry.params).length ? `with A's ${variantLabel(entry, index)}` : "(nothing of A's in the answer)"}`,
      run: async () => {
        const call = await callOf(route, entry, who.app().appId, index);
        const res = await send(who.dev(), call);
        const kind = Object.values(entry.params)[0];
        if (kind) {
          expectRefused(res, call, 404, NOT_FOUND[kind as keyof typeof NOT_FOUND]);
        } else {
          expect(res.status, `${call.method} ${call.url} -> ${res.text.slice(0, 300)}`).toBe(entry.ownApp?.status ?? entry.owner.status);
          entry.ownApp?.check?.(res, r);
        }
        expectNothingOf(res, call, who.texts());
      },
    })),
  );
  return [...withAppOfA, ...throughOwnApp];
}

function organizationAttempts(route: string, entry: OrganizationEntry): Attempt[] {
  return [...Array(variantCount(entry)).keys()].map((index) => ({
    name: `${route}: B on A's ${variantLabel(entry, index)}`,
    run: async () => {
      const call = await callOf(route, entry, "", index);
      const res = await send(devB, call);
      if (entry.refusal) {
        expect(res.status, res.text.slice(0, 300)).toBe(entry.refusal.status);
        entry.refusal.check(res, r);
      } else {
        expectRefused(res, call, 404, "not_found");
      }
      expectNothingOf(res, call, B.texts());
    },
  }));
}

function probeAttempts(route: string, entry: ReferenceEntry): Attempt[] {
  const [method, template] = route.split(" ") as [string, string];
  return entry.probes.map((probe) => ({
    name: `${route}: B, ${probe.label}`,
    run: async () => {
      const call: Call = { method, url: template + (probe.query?.(r) ?? ""), json: probe.json?.(r), form: await probe.form?.() };
      const res = await send(devB, call);
      probe.outsider(res, r);
      expectNothingOf(res, call, B.texts());
    },
  }));
}

const attempts: Attempt[] = Object.entries(SWEEP).flatMap(([route, entry]) => {
  if (entry.kind === "app") return appAttempts(route, entry);
  if (entry.kind === "organization") return organizationAttempts(route, entry);
  if (entry.kind === "reference") return probeAttempts(route, entry);
  return [];
});

describe("another organization's developer (and A's other app) never reaches A's resources", () => {
  for (const { name, run } of attempts) it(name, run);
});

describe("after every outsider's attempt", () => {
  it("A's resources are as they were", async () => {
    expect(await observeA()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------
// The owner: the same calls by A on its own app succeed

/** Reads first, then creations, changes and deletions (a deleted workflow cannot be read afterwards); table order within. */
const METHOD_ORDER = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const controls: Attempt[] = Object.entries(SWEEP)
  .sort(([x], [y]) => METHOD_ORDER.indexOf(x.split(" ")[0]!) - METHOD_ORDER.indexOf(y.split(" ")[0]!))
  .flatMap(([route, entry]): Attempt[] => {
    if (entry.kind === "excluded") return [];
    if (entry.kind === "reference") {
      const [method, template] = route.split(" ") as [string, string];
      return entry.probes.map((probe) => ({
        name: `${route}: A, ${probe.label}`,
        run: async () => probe.owner(await devA.call(method, template + (probe.query?.(r) ?? ""), { json: probe.json?.(r), form: await probe.form?.() }), r),
      }));
    }
    return [
      {
        name: `${route}: A on ${variantLabel(entry, 0)}`,
        run: async () => {
          const res = await send(devA, await callOf(route, entry, a.appId, 0));
          expect(res.status, res.text.slice(0, 300)).toBe(entry.owner.status);
          entry.owner.check?.(res, r);
        },
      },
    ];
  });

describe("A's own session does reach them (the guard's success side)", () => {
  for (const { name, run } of controls) it(name, run);
});

// ---------------------------------------------------------------------------

describe("without a portal session", () => {
  it("every route that needs a developer answers 401 sign_in_required, with nothing of A's", async () => {
    for (const [route, entry] of Object.entries(SWEEP)) {
      if (entry.kind === "excluded") continue;
      const call = entry.kind === "reference" ? { method: route.split(" ")[0]!, url: route.split(" ")[1]! } : await callOf(route, entry, a.appId, 0);
      // The portal's own Origin: refused for the missing session, not as a cross-site request.
      const res = await api(call.method, call.url, { json: call.json, form: call.form, headers: call.method === "GET" ? {} : { origin: shared().url } });
      expectRefused(res, call, 401, "sign_in_required");
      expectNothingOf(res, call, B.texts());
    }
  });
});
