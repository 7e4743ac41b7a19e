import { beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createSession, createTenant, createWorkflow, keyHeader, type ApiResponse, type Tenant } from "../support/api";
import { documentedOperation } from "../support/contract";
import { documentedOperations, readOpenApiCopy } from "../support/contract-coverage";
import { useServerDatabase } from "../support/domain";
import { clientHeaders, createSiblingApp, identifyingTexts, leakedTexts, MEMBER_REFS, seedTenantResources, type TenantResources } from "../support/tenant-resources";

/**
 * Tenant isolation (issue 19, first part): for every operation of the OpenAPI
 * document that an API key or an organization's client credentials call, the
 * credentials of another tenant never reach tenant A's resources. The
 * operations come from the document itself (sdk/openapi.json, the copy the
 * contract check reads); each needs an entry in SWEEP below, keyed by
 * operationId, or the first test fails: a new route is swept or consciously
 * excluded.
 *
 * - An operation whose path names a resource is called by each outsider on
 *   each of A's resources of that kind, with a valid body (so no refusal can
 *   come from validation): the answer is the document's 404 and its one code
 *   (or what the entry says the document declares instead) and contains none
 *   of A's ids, names, emails or vendor_data except what the request itself
 *   carried.
 * - An operation without a path parameter that lists, reads or names A's
 *   resources in its query or body (lists, the identity read, resolve, bind,
 *   recovery, a session on A's workflow or A's webhook as callback) is
 *   probed the same way: the outsider sees nothing of A.
 * - Then A's resources are read again and must be unchanged, and the same
 *   calls with A's credentials must find them (the guard's success side):
 *   a guard that refused everyone would fail here.
 *
 * Outsiders: B, another organization's production app; and, for the API-key
 * operations, another app of A's own organization in the test environment
 * (docs/api-conventions.md "API conventions": "a resource of another app (including the same
 * organization's app in the other environment) is a 404"). The organization
 * API acts on the organization (its roster is shared by the organization's
 * apps), so there only B is an outsider. Both outsiders have a
 * face_uniqueness workflow, so unlinking A's face reaches the lookup (404)
 * instead of stopping at 403 feature_not_allowed.
 *
 * The blocks run in file order (vitest's default) and depend on it: the
 * outsiders first, then A's unchanged state, then the owner's calls, whose
 * writes and deletions come last.
 *
 * Also here: a session token acts on its own session only, and an
 * Idempotency-Key A used never replays A's stored answer to an outsider.
 *
 * Not here:
 * - Session-token operations are not in the table: they carry no id (the
 *   token names its session); the block on session tokens covers them.
 * - OIDC access tokens (userinfo, licences, verifications, credential) read
 *   the signed-in person's own account, not a tenant's resources: there is
 *   no other tenant's resource to name, so they are not in this table;
 *   codes, refresh tokens, consent and end-session across two clients are
 *   in tenant-isolation-oidc.test.ts.
 * - The developer portal's routes (app/api/portal/**) are not in the
 *   document: tenant-isolation-portal.test.ts sweeps them from the file tree.
 */
useServerDatabase();

type DocOperation = {
  operationId: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { description?: string }>;
};
type Doc = { security?: Record<string, string[]>[]; paths: Record<string, Record<string, DocOperation>> };
type Operation = { id: string; method: string; path: string; op: DocOperation };

const doc = readOpenApiCopy() as unknown as Doc;
const operations: Operation[] = documentedOperations(doc).map((o) => ({ id: o.operation, method: o.method, path: o.path, op: o.definition as DocOperation }));

type Credential = "apiKey" | "client";
function credentialOf(op: DocOperation): Credential | undefined {
  const schemes = new Set((op.security ?? doc.security ?? []).flatMap((s) => Object.keys(s)));
  if (schemes.has("ApiKeyBearer") || schemes.has("ApiKeyHeader")) return "apiKey";
  if (schemes.has("ClientId")) return "client";
  return undefined;
}
const pathParams = (p: string) => [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
/** The error codes the document names for one status of an operation (its description lists them in backticks). */
const documentedCodes = (op: DocOperation, status: number) => [...(op.responses[String(status)]?.description ?? "").matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);

// ---------------------------------------------------------------------------
// The sweep table

/** The kinds of A's resources a path parameter names. */
type Resource = "session" | "workflow" | "webhook" | "delivery" | "member" | "face";

/**
 * Each kind's resources of A that outsiders try; the first is the one the
 * owner's control calls (later ones are refused to outsiders only: the
 * owner's reads of them are in the lists and resolve probes).
 */
const VARIANTS: Record<Resource, Array<{ label: string; ref: (r: TenantResources) => string }>> = {
  session: [
    { label: "an IN_REVIEW session", ref: (r) => r.reviewSession.id },
    { label: "an APPROVED session bound to an account", ref: (r) => r.approvedSession.id },
  ],
  workflow: [
    { label: "a liveness workflow", ref: (r) => r.workflowId },
    { label: "a face_uniqueness workflow", ref: (r) => r.faceWorkflowId },
  ],
  webhook: [{ label: "an approved webhook", ref: (r) => r.webhook.id }],
  delivery: [{ label: "a test event's delivery", ref: (r) => r.delivery.id }],
  member: MEMBER_REFS,
  face: [{ label: "an enrolled face (svc_uuid)", ref: (r) => r.faceId }],
};

/** The caller's own fixtures a probe may name (its own workflow, where a body needs one). */
type Own = { workflowId: string };
type Check = (res: ApiResponse, r: TenantResources) => void;

type PathEntry = {
  kind: "path";
  /** The resource each path parameter names. */
  params: Record<string, Resource>;
  /** A valid body, so a refusal cannot come from validation. */
  body?: (r: TenantResources) => unknown;
  /**
   * What an outsider gets when it is not the document's 404 with its one
   * code: a status (and code) the document declares for the operation.
   */
  refusal?: { status: number; code?: string; check?: Check };
  /** The owner's answer: it found the resource (and acted on it). */
  owner: { status: number; check?: Check };
};
type Probe = {
  label: string;
  path: (r: TenantResources) => string;
  json?: (r: TenantResources, own: Own) => unknown;
  outsider: Check;
  owner: Check;
};
type ReferenceEntry = { kind: "reference"; probes: Probe[] };
type Excluded = { kind: "excluded"; why: string };
type Entry = PathEntry | ReferenceEntry | Excluded;

const idsOf = (data: { sessions: { session_id: string }[] }) => data.sessions.map((s) => s.session_id);
const sessionIds = (res: ApiResponse) => idsOf(res.body.data);
const ok = (status = 200): Check => (res) => expect(res.status, res.text.slice(0, 300)).toBe(status);

const SWEEP: Record<string, Entry> = {
  // --- sessions
  createSession: {
    kind: "reference",
    probes: [
      {
        label: "a session of A's workflow",
        path: () => "/api/v2/session",
        json: (r) => ({ workflow_id: r.workflowId }),
        outsider: (res) => expectRefusal(res, "createSession", 404, "workflow_not_found"),
        owner: ok(201),
      },
      {
        label: "A's approved webhook as callback (own workflow)",
        path: () => "/api/v2/session",
        json: (r, own) => ({ workflow_id: own.workflowId, callback: r.webhook.url }),
        outsider: (res) => expectRefusal(res, "createSession", 422, "callback_not_allowed"),
        owner: ok(201),
      },
    ],
  },
  listSessions: {
    kind: "reference",
    probes: [
      {
        label: "every session",
        path: () => "/api/v2/session?limit=1000",
        outsider: ok(),
        owner: (res, r) => {
          ok()(res, r);
          expect(sessionIds(res)).toEqual(expect.arrayContaining([r.reviewSession.id, r.approvedSession.id, r.faceSession.id]));
        },
      },
      {
        label: "filtered by A's vendor_data",
        path: (r) => `/api/v2/session?vendor_data=${encodeURIComponent(r.reviewSession.vendorData)}`,
        outsider: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.data.sessions).toEqual([]);
        },
        owner: (res, r) => {
          ok()(res, r);
          expect(sessionIds(res)).toEqual([r.reviewSession.id]);
        },
      },
    ],
  },
  getSession: {
    kind: "path",
    params: { id: "session" },
    owner: {
      status: 200,
      check: (res, r) => expect(res.body.data).toMatchObject({ session_id: r.reviewSession.id, status: "IN_REVIEW", vendor_data: r.reviewSession.vendorData }),
    },
  },
  getSessionDecision: {
    kind: "path",
    params: { id: "session" },
    owner: { status: 200, check: (res, r) => expect(res.body.data).toMatchObject({ session_id: r.reviewSession.id, status: "IN_REVIEW" }) },
  },
  reviewSession: {
    kind: "path",
    params: { id: "session" },
    body: () => ({ status: "DECLINED" }),
    owner: { status: 200, check: (res, r) => expect(res.body.data).toMatchObject({ session_id: r.reviewSession.id, status: "DECLINED" }) },
  },
  reviewCheck: {
    kind: "excluded",
    why: "{type} is a check name, not a tenant's resource, and a control call would settle a check of the shared fixtures; another app's key on this session is refused with 404 session_not_found in tests/integration/liveness-review.test.ts",
  },

  // --- workflows
  listWorkflows: {
    kind: "reference",
    probes: [
      {
        label: "every workflow",
        path: () => "/api/v2/workflows",
        outsider: ok(),
        owner: (res, r) => {
          ok()(res, r);
          expect(res.body.data.workflows.map((w: { id: string }) => w.id)).toEqual(expect.arrayContaining([r.workflowId, r.faceWorkflowId]));
        },
      },
    ],
  },
  createWorkflow: { kind: "excluded", why: "creates a workflow in the caller's own app and names nothing that exists (listWorkflows shows where workflows go)" },
  getWorkflow: {
    kind: "path",
    params: { id: "workflow" },
    owner: { status: 200, check: (res, r) => expect(res.body.data.workflow).toMatchObject({ id: r.workflowId, name: r.workflowNames[0] }) },
  },
  updateWorkflow: {
    kind: "path",
    params: { id: "workflow" },
    body: () => ({ name: "renamed by the caller" }),
    owner: { status: 200, check: (res, r) => expect(res.body.data.workflow).toMatchObject({ id: r.workflowId, name: "renamed by the caller" }) },
  },
  deleteWorkflow: {
    kind: "path",
    params: { id: "workflow" },
    owner: { status: 200, check: (res) => expect(res.body.data).toEqual({ deleted: true }) },
  },

  // --- reusable identity and faces
  getIdentity: {
    kind: "reference",
    probes: (["svc_id", "legacy_id"] as const)
      .map(
        (param): Probe => ({
          label: `by ${param}`,
          path: (r) => `/api/v2/identity?${param}=${r.account.id}`,
          outsider: (res) => expectRefusal(res, "getIdentity", 404, "not_found"),
          owner: (res, r) => {
            ok()(res, r);
            expect(res.body.data.identity.svc_id).toBe(r.account.id);
          },
        }),
      )
      .concat({
        label: "by A's vendor_data",
        path: (r) => `/api/v2/identity?vendor_data=${encodeURIComponent(r.approvedSession.vendorData)}`,
        outsider: (res) => expectRefusal(res, "getIdentity", 404, "not_found"),
        owner: (res, r) => {
          ok()(res, r);
          expect(res.body.data.identity.svc_id).toBe(r.account.id);
        },
      }),
  },
  unlinkFace: {
    kind: "path",
    params: { svc_uuid: "face" },
    owner: { status: 200, check: (res, r) => expect(res.body.data).toMatchObject({ svc_uuid: r.faceId, unlinked: true }) },
  },

  // --- the public licence catalogue
  listCredentialStates: { kind: "excluded", why: "the public licence catalogue: the same for every tenant, nothing of a tenant in it" },
  listCredentialProviders: { kind: "excluded", why: "{state} is a US state code of the public licence catalogue, not a tenant's resource" },

  // --- webhooks
  listWebhooks: {
    kind: "reference",
    probes: [
      {
        label: "every webhook",
        path: () => "/api/v2/webhooks",
        outsider: ok(),
        owner: (res, r) => {
          ok()(res, r);
          expect(res.body.data.webhooks.map((w: { webhook_id: string }) => w.webhook_id)).toContain(r.webhook.id);
        },
      },
    ],
  },
  setWebhookActive: {
    kind: "path",
    params: { id: "webhook" },
    body: () => ({ active: false }),
    owner: { status: 200, check: (res, r) => expect(res.body.data.webhook).toMatchObject({ webhook_id: r.webhook.id, active: false }) },
  },
  deleteWebhook: {
    kind: "path",
    params: { id: "webhook" },
    owner: {
      status: 200,
      check: (res, r) => expect(res.body.data).toEqual({ webhook_id: r.webhook.id, deleted: true, cancelled_deliveries: expect.any(Number) }),
    },
  },
  rollWebhookSecret: {
    kind: "path",
    params: { id: "webhook" },
    body: () => ({ expire_previous_in: 3600 }),
    owner: {
      status: 200,
      check: (res, r) => {
        expect(res.body.data.webhook).toMatchObject({ webhook_id: r.webhook.id, previous_secret_expires_at: expect.any(String) });
        expect(res.body.data.secret).toMatch(/^whsec_/);
      },
    },
  },
  sendTestWebhookEvent: {
    kind: "path",
    params: { id: "webhook" },
    body: () => ({ kind: "approved" }),
    owner: { status: 202, check: (res) => expect(res.body.data).toMatchObject({ kind: "approved", deliveries: 1 }) },
  },
  listWebhookDeliveries: {
    kind: "reference",
    probes: [
      {
        label: "the delivery log",
        path: () => "/api/v2/webhooks/deliveries?limit=1000",
        outsider: ok(),
        owner: (res, r) => {
          ok()(res, r);
          expect(res.body.data.deliveries.map((d: { delivery_id: string }) => d.delivery_id)).toContain(r.delivery.id);
        },
      },
    ],
  },
  resendWebhookDelivery: {
    kind: "path",
    params: { id: "delivery" },
    owner: { status: 202, check: (res, r) => expect(res.body.data).toMatchObject({ resent_from: r.delivery.id, event_id: r.delivery.eventId }) },
  },

  // --- the organization API
  listMembers: {
    kind: "reference",
    probes: [
      {
        label: "the roster",
        path: () => "/api/sdk/members",
        outsider: ok(),
        owner: (res, r) => {
          ok()(res, r);
          expect(res.body.data.members.map((m: { member_id: string }) => m.member_id)).toEqual(
            expect.arrayContaining([r.invitedMember.memberId, r.boundMember.memberId]),
          );
        },
      },
    ],
  },
  addMembers: {
    kind: "reference",
    probes: [
      {
        // Anyone may invite any email, but the answer must not tell that A has it (a `duplicate` skip would).
        label: "A's member's email",
        path: () => "/api/sdk/members",
        json: (r) => ({ members: [{ email: r.boundMember.email }], invite: "face", notify: false }),
        outsider: (res, r) => {
          expect(res.status, res.text).toBe(201);
          expect(res.body.data.skipped).toEqual([]);
          expect(res.body.data.created).toHaveLength(1);
          expect(res.body.data.created[0]).toMatchObject({ email: r.boundMember.email, status: "link_sent", svc_id: null });
          expect(res.body.data.created[0].member_id).not.toBe(r.boundMember.memberId);
        },
        owner: (res, r) => {
          expect(res.status, res.text).toBe(201);
          expect(res.body.data).toMatchObject({ created: [], skipped: [{ email: r.boundMember.email, reason: "duplicate" }] });
        },
      },
    ],
  },
  resolveMember: {
    kind: "reference",
    probes: [
      {
        label: "A's member by email",
        path: () => "/api/sdk/members/resolve",
        json: (r) => ({ email: r.invitedMember.email }),
        outsider: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.data).toEqual({ found: false, member: null });
        },
        owner: (res, r) => expect(res.body.data).toMatchObject({ found: true, member: { member_id: r.invitedMember.memberId } }),
      },
      {
        label: "A's member by svc_id",
        path: () => "/api/sdk/members/resolve",
        json: (r) => ({ svc_id: r.account.id }),
        outsider: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.data).toEqual({ found: false, member: null });
        },
        owner: (res, r) => expect(res.body.data).toMatchObject({ found: true, member: { member_id: r.boundMember.memberId } }),
      },
    ],
  },
  bindMember: {
    kind: "reference",
    probes: [
      {
        label: "A's person (an account that shared proofs with A only)",
        path: () => "/api/sdk/members/bind",
        json: (r) => ({ svcId: r.account.id, email: r.boundMember.email, firstName: "Grace", lastName: r.boundMember.lastName }),
        outsider: (res) => expectRefusal(res, "bindMember", 404, "not_found"),
        owner: (res, r) => {
          ok()(res, r);
          expect(res.body.data.member).toMatchObject({ member_id: r.boundMember.memberId, svc_id: r.account.id, status: "active" });
        },
      },
    ],
  },
  removeMember: {
    kind: "path",
    params: { member_id: "member" },
    // The document declares no 404: removing an absent member is not an error (docs/organization-api.md).
    refusal: { status: 200, check: (res) => expect(res.body.data).toEqual({ member: null, already_removed: true }) },
    owner: { status: 200, check: (res, r) => expect(res.body.data.member).toMatchObject({ member_id: r.invitedMember.memberId, status: "deactivated" }) },
  },
  deactivateMember: {
    kind: "path",
    params: { member_id: "member" },
    owner: { status: 200, check: (res, r) => expect(res.body.data.member).toMatchObject({ member_id: r.invitedMember.memberId, status: "deactivated" }) },
  },
  reactivateMember: {
    kind: "path",
    params: { member_id: "member" },
    // Deactivated just before (PATCH deactivate runs first): an unbound member comes back `invited`.
    owner: { status: 200, check: (res, r) => expect(res.body.data.member).toMatchObject({ member_id: r.invitedMember.memberId, status: "invited" }) },
  },
  resendInvite: {
    kind: "path",
    params: { member_id: "member" },
    body: () => ({ notify: false }),
    owner: {
      status: 200,
      check: (res, r) => {
        expect(res.body.data.member).toMatchObject({ member_id: r.invitedMember.memberId, status: "link_sent" });
        expect(res.body.data.activation_link).toMatch(/\/activate\/act_/);
      },
    },
  },
  startRecovery: {
    kind: "reference",
    probes: [
      {
        label: "A's active member with an enrolled face",
        path: () => "/api/sdk/recovery/session",
        json: (r) => ({ svcId: r.account.id, variant: "without_id" }),
        outsider: (res) => {
          expect(res.status, res.text).toBe(200);
          expect(res.body.data).toEqual({ eligible: false, recoveryUrl: null, emailed: false, sessionId: null, status: null, expiresAt: null });
        },
        owner: (res) => {
          expect(res.status, res.text).toBe(200);
          expect(res.body.data).toMatchObject({ eligible: true, status: "NOT_STARTED", sessionId: expect.any(String) });
        },
      },
    ],
  },
  readBilling: {
    kind: "reference",
    probes: [
      {
        // A's bound member is active: a seat of A's, never of anyone else's.
        label: "seats",
        path: () => "/api/sdk/billing",
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
};

function expectRefusal(res: ApiResponse, operationId: string, status: number, code: string) {
  const op = operations.find((o) => o.id === operationId)!.op;
  expect(documentedCodes(op, status), `the document's ${status} of ${operationId} names ${code}`).toContain(code);
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code } });
}

/** An outsider's answer carries none of A's identifying texts, except those its own request carried. */
function expectNothingOf(res: ApiResponse, request: string, texts: string[]) {
  expect(leakedTexts(res, request, texts), `${request} -> ${res.status} ${res.text.slice(0, 500)}`).toEqual([]);
}

// ---------------------------------------------------------------------------
// The tenants

let a: Tenant; // production
let r: TenantResources;
let b: Tenant; // another organization, production
let bOwn: Own;
let sibling: Tenant; // another app of A's organization, test environment
let siblingOwn: Own;
let before: Awaited<ReturnType<typeof observeA>>;
/** A session of each tenant with its token, for the session-token block. */
let tokenA: { id: string; token: string };
let tokenB: { id: string; token: string };

type Outsider = { name: string; tenant: () => Tenant; own: () => Own; credentials: Credential[]; headers: (c: Credential) => Record<string, string>; texts: () => string[] };
const OUTSIDERS: Outsider[] = [
  {
    name: "B (another organization)",
    tenant: () => b,
    own: () => bOwn,
    credentials: ["apiKey", "client"],
    headers: (c) => (c === "apiKey" ? keyHeader(b) : clientHeaders(b)),
    texts: () => identifyingTexts(a, r),
  },
  {
    // Its key as a Bearer token: both forms of the API key are swept.
    name: "A's sibling app (same organization, test environment)",
    tenant: () => sibling,
    own: () => siblingOwn,
    credentials: ["apiKey"],
    headers: () => ({ Authorization: `Bearer ${sibling.apiKey}` }),
    texts: () => identifyingTexts(a, r).filter((t) => t !== a.organizationId && t !== a.developerId),
  },
];
const ownerHeaders = (c: Credential) => (c === "apiKey" ? keyHeader(a) : clientHeaders(a));

/** What A can see of its resources: an outsider's calls must change none of it. */
async function observeA() {
  const read = async (p: string, headers: Record<string, string>) => {
    const res = await api("GET", p, { headers });
    expect(res.status, `${p}: ${res.text.slice(0, 300)}`).toBe(200);
    return res.body.data;
  };
  const key = keyHeader(a);
  const byId = <T extends Record<string, unknown>>(rows: T[], id: keyof T) => [...rows].sort((x, y) => String(x[id]).localeCompare(String(y[id])));
  const { db } = await import("@/lib/db/client");
  return {
    reviewSession: await read(`/api/v2/session/${r.reviewSession.id}`, key),
    reviewDecision: await read(`/api/v2/session/${r.reviewSession.id}/decision`, key),
    approvedDecision: await read(`/api/v2/session/${r.approvedSession.id}/decision`, key),
    sessions: idsOf(await read("/api/v2/session?limit=1000", key)).sort(),
    workflows: byId((await read("/api/v2/workflows", key)).workflows, "id"),
    webhooks: byId((await read("/api/v2/webhooks", key)).webhooks, "webhook_id"),
    // Only the ids: the worker keeps attempting the deliveries meanwhile.
    deliveries: ((await read("/api/v2/webhooks/deliveries?limit=1000", key)).deliveries as { delivery_id: string }[]).map((d) => d.delivery_id).sort(),
    identity: await read(`/api/v2/identity?svc_id=${r.account.id}`, key),
    members: byId((await read("/api/sdk/members", clientHeaders(a))).members, "member_id"),
    seats: (await read("/api/sdk/billing", clientHeaders(a))).seats,
    activeFaceEnrolments: await (await db()).faceEnrollment.count({ where: { faceId: r.faceId, appId: a.appId, status: "active" } }),
  };
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(undefined, "production"), createTenant(undefined, "production")]);
  sibling = await createSiblingApp(a, "test");
  r = await seedTenantResources(a);
  const { createWebhookEndpoint } = await import("@/lib/tenancy/webhook-endpoints");
  // B is a working tenant of its own: a webhook (account recovery refuses every request without one) and a face_uniqueness workflow.
  await createWebhookEndpoint({ appId: b.appId, url: "https://hooks.example/tenant-b", approve: true });
  bOwn = { workflowId: await createWorkflow(b, ["face_uniqueness"]) };
  siblingOwn = { workflowId: await createWorkflow(sibling, ["face_uniqueness"]) };
  const sa = await createSession(a, { workflow_id: r.faceWorkflowId });
  const sb = await createSession(b, { workflow_id: bOwn.workflowId });
  tokenA = { id: sa.session_id, token: sa.session_token };
  tokenB = { id: sb.session_id, token: sb.session_token };
  before = await observeA();
  expect(before.activeFaceEnrolments).toBe(1);
  expect(before.seats).toBe(1);
});

const swept = operations.filter((o) => credentialOf(o.op) !== undefined);
const entryOf = (o: Operation) => SWEEP[o.id];

describe("the sweep table", () => {
  it("has an entry for every operation an API key or client credentials call, and none for an operation the document lacks", () => {
    expect(swept.length).toBeGreaterThan(20);
    expect(swept.filter((o) => !SWEEP[o.id]).map((o) => `${o.id} (${o.method} ${o.path})`)).toEqual([]);
    expect(Object.keys(SWEEP).filter((id) => !swept.some((o) => o.id === id))).toEqual([]);
  });

  it("sweeps every path parameter as the resource it names, or excludes the operation with a reason", () => {
    const wrong: string[] = [];
    for (const o of swept) {
      const entry = entryOf(o);
      if (!entry) continue;
      const params = pathParams(o.path);
      if (entry.kind === "excluded") {
        if (entry.why.length < 20) wrong.push(`${o.id}: say why it is excluded`);
        continue;
      }
      if (entry.kind === "reference" && params.length > 0) wrong.push(`${o.id}: its path names {${params.join("}, {")}}: sweep it as a path`);
      if (entry.kind === "path" && JSON.stringify(Object.keys(entry.params).sort()) !== JSON.stringify([...params].sort())) {
        wrong.push(`${o.id}: the path's parameters are ${params.join(", ")}, the entry's ${Object.keys(entry.params).join(", ")}`);
      }
      if (entry.kind === "path" && !entry.refusal && documentedCodes(o.op, 404).length !== 1) {
        wrong.push(`${o.id}: the document declares ${o.op.responses["404"] ? "several 404 codes" : "no 404"}: say what an outsider gets`);
      }
      if (entry.kind === "path" && entry.refusal && !o.op.responses[String(entry.refusal.status)]) wrong.push(`${o.id}: the refusal's status is not in the document`);
    }
    expect(wrong).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// Outsiders on A's resources

type Attempt = { name: string; run: () => Promise<void> };

function pathAttempts(o: Operation, entry: PathEntry): Attempt[] {
  const credential = credentialOf(o.op)!;
  const resource = Object.values(entry.params)[0]!;
  return OUTSIDERS.filter((who) => who.credentials.includes(credential)).flatMap((who) =>
    VARIANTS[resource].map((variant, index) => ({
      name: `${o.id} ${o.method} ${o.path}: ${who.name} on ${variant.label}`,
      run: async () => {
        const url = concretePath(o, entry, index);
        const json = entry.body?.(r);
        const res = await api(o.method, url, { headers: who.headers(credential), json });
        const refusal = entry.refusal ?? { status: 404, code: documentedCodes(o.op, 404)[0] };
        expect(res.status, res.text.slice(0, 300)).toBe(refusal.status);
        if (refusal.code) expectRefusal(res, o.id, refusal.status, refusal.code);
        refusal.check?.(res, r);
        expectNothingOf(res, `${o.method} ${url} ${JSON.stringify(json ?? "")}`, who.texts());
      },
    })),
  );
}

/** The operation's path with each parameter replaced by A's resource (variant `index`, else the first). */
function concretePath(o: Operation, entry: PathEntry, index: number): string {
  const url = o.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variants = VARIANTS[entry.params[name]!];
    return encodeURIComponent((variants[index] ?? variants[0]!).ref(r));
  });
  expect(documentedOperation(o.method, url), `${url} reaches ${o.id}`).toMatchObject({ path: o.path });
  return url;
}

function probeAttempts(o: Operation, entry: ReferenceEntry): Attempt[] {
  const credential = credentialOf(o.op)!;
  return OUTSIDERS.filter((who) => who.credentials.includes(credential)).flatMap((who) =>
    entry.probes.map((probe) => ({
      name: `${o.id} ${o.method} ${o.path}: ${who.name}, ${probe.label}`,
      run: async () => {
        const url = probe.path(r);
        expect(documentedOperation(o.method, url), `${url} reaches ${o.id}`).toMatchObject({ path: o.path });
        const json = probe.json?.(r, who.own());
        const res = await api(o.method, url, { headers: who.headers(credential), json });
        probe.outsider(res, r);
        expectNothingOf(res, `${o.method} ${url} ${JSON.stringify(json ?? "")}`, who.texts());
      },
    })),
  );
}

const attempts: Attempt[] = swept.flatMap((o) => {
  const entry = entryOf(o);
  if (!entry || entry.kind === "excluded") return [];
  return entry.kind === "path" ? pathAttempts(o, entry) : probeAttempts(o, entry);
});

describe("another tenant's credentials never reach A's resources", () => {
  for (const { name, run } of attempts) it(name, run);
});

describe("after every outsider's attempt", () => {
  it("A's resources are as they were", async () => {
    expect(await observeA()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------
// The owner: the same calls with A's credentials find the resource

/** Reads first, then creations, changes and deletions (a deleted workflow cannot be read afterwards); document order within. */
const METHOD_ORDER = ["GET", "POST", "PATCH", "DELETE"];
const controls: Attempt[] = [...swept]
  .sort((x, y) => METHOD_ORDER.indexOf(x.method) - METHOD_ORDER.indexOf(y.method))
  .flatMap((o) => {
    const entry = entryOf(o);
    if (!entry || entry.kind === "excluded") return [];
    const credential = credentialOf(o.op)!;
    if (entry.kind === "path") {
      return [
        {
          name: `${o.id} ${o.method} ${o.path}: A on ${VARIANTS[Object.values(entry.params)[0]!][0]!.label}`,
          run: async () => {
            const res = await api(o.method, concretePath(o, entry, 0), { headers: ownerHeaders(credential), json: entry.body?.(r) });
            expect(res.status, res.text.slice(0, 300)).toBe(entry.owner.status);
            entry.owner.check?.(res, r);
          },
        },
      ];
    }
    return entry.probes.map((probe) => ({
      name: `${o.id} ${o.method} ${o.path}: A, ${probe.label}`,
      run: async () => {
        const res = await api(o.method, probe.path(r), { headers: ownerHeaders(credential), json: probe.json?.(r, { workflowId: r.workflowId }) });
        probe.owner(res, r);
      },
    }));
  });

describe("A's own credentials do reach them (the guard's success side)", () => {
  for (const { name, run } of controls) it(name, run);
});

// ---------------------------------------------------------------------------
// Session tokens carry no id: a token acts on its own session only

describe("a session token acts on its own session only", () => {
  it("GET /api/v2/flow with A's token answers A's session, never B's; finishing it leaves B's open; it is no API key", async () => {
    for (const headers of [bearer(tokenA.token), { "X-Session-Token": tokenA.token }]) {
      const flow = await api("GET", "/api/v2/flow", { headers });
      expect(flow.status).toBe(200);
      expect(flow.body.data).toMatchObject({ session_id: tokenA.id, status: "NOT_STARTED" });
      expect(flow.text).not.toContain(tokenB.id);
    }
    const finished = await api("POST", "/api/v2/flow/finish", { headers: bearer(tokenA.token) });
    expect(finished.status, finished.text).toBe(200);
    expect(finished.text).not.toContain(tokenB.id);
    expect((await api("GET", `/api/v2/session/${tokenA.id}`, { headers: keyHeader(a) })).body.data.status).toBe("DECLINED");

    const theirs = await api("GET", "/api/v2/flow", { headers: bearer(tokenB.token) });
    expect(theirs.body.data).toMatchObject({ session_id: tokenB.id, status: "NOT_STARTED" });
    expect((await api("GET", `/api/v2/session/${tokenB.id}`, { headers: keyHeader(b) })).body.data.status).toBe("NOT_STARTED");

    // A session token read as an API key is none, for another tenant's session as for its own.
    for (const id of [tokenB.id, tokenA.id]) {
      const asKey = await api("GET", `/api/v2/session/${id}`, { headers: bearer(tokenA.token) });
      expect(asKey.status).toBe(401);
      expect(asKey.body.error.code).toBe("invalid_api_key");
    }
  });
});

// ---------------------------------------------------------------------------
// Idempotency keys are scoped per tenant (docs/api-conventions.md "API conventions")

describe("an idempotency key of A's never replays A's answer to another tenant", () => {
  it("API key: an outsider's POST under a key A used runs afresh: A's body is its 404, another body its own 201, never A's answer or 422", async () => {
    const post = (t: Tenant, key: string, workflowId: string) =>
      api("POST", "/api/v2/session", { headers: { ...keyHeader(t), "Idempotency-Key": key }, json: { workflow_id: workflowId } });
    const sameBody = `iso-${r.tag}-same-body`;
    const otherBody = `iso-${r.tag}-other-body`;
    const mine = await post(a, sameBody, r.faceWorkflowId);
    expect(mine.status).toBe(201);
    expect((await post(a, otherBody, r.faceWorkflowId)).status).toBe(201);
    for (const [who, own] of [[b, bOwn], [sibling, siblingOwn]] as const) {
      const theirs = await post(who, sameBody, r.faceWorkflowId);
      expect(theirs.headers.get("idempotent-replayed")).toBeNull();
      expectRefusal(theirs, "createSession", 404, "workflow_not_found");
      expect(theirs.text).not.toContain(mine.body.data.session_id);
      // Another body under a key A used: the outsider's own first request, not `idempotency_key_reused` (which would tell it that A used the key).
      const fresh = await post(who, otherBody, own.workflowId);
      expect(fresh.status, fresh.text).toBe(201);
      expect(fresh.headers.get("idempotent-replayed")).toBeNull();
      expect((await api("GET", `/api/v2/session/${fresh.body.data.session_id}`, { headers: keyHeader(who) })).status).toBe(200);
    }
  });

  it("client credentials: B's resolve under A's key and body is answered afresh for B's roster", async () => {
    const key = `iso-${r.tag}-resolve`;
    const json = { email: r.invitedMember.email.toUpperCase() };
    const mine = await api("POST", "/api/sdk/members/resolve", { headers: { ...clientHeaders(a), "Idempotency-Key": key }, json });
    expect(mine.body.data).toMatchObject({ found: true, member: { member_id: r.invitedMember.memberId } });
    const theirs = await api("POST", "/api/sdk/members/resolve", { headers: { ...clientHeaders(b), "Idempotency-Key": key }, json });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.body.data).toEqual({ found: false, member: null });
  });
});
