import { beforeAll, describe, expect, it } from "vitest";
import { FEATURES } from "@/lib/workflows/schemas";
import { bearer, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant } from "../support/api";
import { documentedOperations, readOpenApiCopy } from "../support/contract-coverage";
import { useServerDatabase } from "../support/domain";
import { answerProblems, fuzzRequests, type FuzzRequest, type FuzzTarget } from "../support/fuzz-requests";
import { clientHeaders, seedTenantResources, type TenantResources } from "../support/tenant-resources";

/**
 * Every documented operation fuzzed on a production app with its real
 * credentials and real ids (so the hostile part reaches validation, not
 * just authentication): FUZZ_REQUESTS requests in all (3,000 by default,
 * about 20 s; `npm run soak` sends far more), drawn from FUZZ_SEED
 * (fixed by default, so a run is reproducible). Every answer must be below
 * 500, carry X-Request-Id, show no stack trace or internal address, and be
 * the spec's error envelope when it is a JSON error.
 */
useServerDatabase();

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CONCURRENCY = 4;

const doc = readOpenApiCopy();
const operations = documentedOperations(doc);

let t: Tenant;
let r: TenantResources;
let everyFeature: string;

beforeAll(async () => {
  t = await createTenant(undefined, "production");
  r = await seedTenantResources(t);
  everyFeature = await createWorkflow(t, [...FEATURES]);
});

/** Real credentials for the operation; a hosted-flow operation gets a session of its own, of a workflow with every feature, so its requests reach validation rather than "session closed". */
async function credentialsFor(security: unknown): Promise<Record<string, string>> {
  const schemes = new Set(((security as Record<string, string[]>[] | undefined) ?? []).flatMap((s) => Object.keys(s)));
  if (schemes.has("ApiKeyBearer")) return keyHeader(t);
  if (schemes.has("ClientId")) return clientHeaders(t);
  if (schemes.has("SessionToken")) return bearer((await createSession(t, { workflow_id: everyFeature })).session_token);
  if (schemes.has("ClientSecretBasic")) return { authorization: `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString("base64")}` };
  if (schemes.has("OidcAccessToken")) return bearer("not-a-token");
  return {};
}

/** The tenant's own resource for a path parameter. */
function realId(name: string, path: string): string | undefined {
  if (name === "state") return "CA";
  if (name === "svc_uuid") return r.faceId;
  if (name === "member_id") return r.invitedMember.memberId;
  if (path.startsWith("/api/v2/session/")) return r.approvedSession.id;
  if (path.startsWith("/api/v2/workflows/")) return r.workflowId;
  if (path.startsWith("/api/v2/webhooks/deliveries/")) return r.delivery.id;
  if (path.startsWith("/api/v2/webhooks/")) return r.webhook.id;
  return undefined;
}

const statuses = new Map<number, number>();

async function send(req: FuzzRequest): Promise<string[]> {
  let res: Response;
  try {
    res = await fetch(`${shared().url}${req.url}`, { method: req.method, headers: req.headers, body: req.body, redirect: "manual" });
  } catch (err) {
    // EPIPE: the server answered and closed before reading the whole body (an
    // upload refused early, e.g. over its budget): the client's write fails, not the server.
    if ((err as { cause?: { code?: string } }).cause?.code === "EPIPE") return [];
    return [`no answer (${(err as Error).message}: ${String((err as Error).cause)}) <- ${req.label}`];
  }
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  return answerProblems(req.label, new URL(req.url, "http://x").pathname, res.status, res.headers, await res.text(), contentTypeOf(req.headers));
}

describe("fuzzing every documented operation", () => {
  it(`answers ${TOTAL} hostile requests with a 4xx envelope or a success, never a 5xx, a stack trace or a missing request id`, async () => {
    const perOperation = Math.max(1, Math.floor(TOTAL / operations.length));
    const requests: FuzzRequest[] = [];
    for (const [i, op] of operations.entries()) {
      const target: FuzzTarget = { op, credentials: await credentialsFor(op.definition.security), realId };
      requests.push(...fuzzRequests(doc, target, SEED + i, perOperation));
    }
    const problems: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) problems.push(...(await send(requests[next++]!)));
      }),
    );
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(", ");
    console.log(`fuzz: ${requests.length} requests over ${operations.length} operations, seed ${SEED}, ${problems.length} problems; answers ${byStatus}`);
    if (process.env.FUZZ_REPORT) (await import("node:fs")).writeFileSync(process.env.FUZZ_REPORT, problems.join("\n"));
    expect(problems.slice(0, 25)).toEqual([]);
  }, Math.max(600_000, TOTAL * 20));
});

function contentTypeOf(headers: FuzzRequest["headers"]): string | undefined {
  return Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "content-type")?.[1];
}
