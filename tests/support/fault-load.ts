import { randomBytes, randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { retryingFetch } from "@/sdk/src/client";
import { cli } from "./cli";
import { createTestDatabase, sql } from "./database";
import { LOCAL_RECEIVER_NETWORKS, TestReceiver } from "./receiver";
import { freePort, startServer, type RunningServer } from "./server";

/**
 * Faults under load (tests/integration/faults.test.ts on the test's
 * database, tests/operations/service-faults.test.ts on private PostgreSQL
 * and Redis): an install of its own per fault, people verifying through a
 * client that retries as the SDK does, and the invariants that must hold
 * afterwards. Each file registers its cleanups with `faultCleanups` and
 * runs them in its afterAll.
 */
const cleanups: Array<() => unknown> = [];
/** Stops and drops what the installs of this file started, newest first. */
export async function faultCleanups() {
  for (const fn of cleanups.splice(0).reverse()) await Promise.resolve(fn()).catch(() => {});
}
/** Registers a cleanup for faultCleanups. */
export const cleanupLater = (fn: () => unknown) => cleanups.push(fn);
/** The clients back off up to 8 s and a crash leaves Idempotency-Key claims until their lease lapses; on a loaded machine that is minutes. */
export const FAULT_TEST_MS = 480_000;
export const PEOPLE = 12;

export type Install = { env: Record<string, string>; url: string; port: number; server: RunningServer };

export async function install(label: string, extra: Record<string, string> = {}): Promise<Install> {
  const database = extra.DATABASE_URL ? undefined : await createTestDatabase(label);
  if (database) cleanups.push(() => database.drop());
  const env = {
    ...(database?.env ?? {}),
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    WEBHOOK_RETRY_SCHEDULE: "0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
    WEBHOOK_POLL_MS: "100",
    WEBHOOK_TIMEOUT_MS: "1500",
    CREDENTIAL_CACHE_MS: "0",
    // The server runs the periodic jobs (session expiry among them), as an embedded install's server does.
    JOB_WORKER: "on",
    // A claim left by the killed process is taken over after 10 s instead of 60 s (a live one is renewed every third of it).
    IDEMPOTENCY_CLAIM_MS: "10000",
    ...LOCAL_RECEIVER_NETWORKS,
    ...extra,
  };
  const port = await freePort();
  const logFile = path.join(os.tmpdir(), `svc-${label}.log`);
  const server = await startServer(env, { port, logFile });
  cleanups.push(() => current.server.stop());
  const current = { env, url: server.url, port, server };
  return current;
}

/** A production app (billed, wallet credited) and a test app with a webhook to a receiver that fails in every way. */
export async function tenants(i: Install) {
  const dev = await cli(["developer:create", "--email", `f${randomUUID()}@example.com`, "--password", "fault-password-1"], i.env);
  const live = await cli(["app:create", "--org", dev.organization_id, "--name", "Live", "--env", "production"], i.env);
  const test = await cli(["app:create", "--org", dev.organization_id, "--name", "Test", "--env", "test"], i.env);
  await cli(["wallet:credit", "--org", dev.organization_id, "--amount", "100"], i.env);
  const receiver = await new TestReceiver().start();
  cleanups.push(() => receiver.stop());
  const hook = await cli(["webhook:create", "--app", test.app_id, "--url", receiver.url, "--approve"], i.env);
  receiver.secret = hook.secret;
  // The receiver's own faults: 500s, then hung requests past the timeout, then closed connections.
  receiver.failNext = 3;
  receiver.hangNext = 2;
  receiver.dropNext = 2;
  const workflow = async (apiKey: string) => {
    const res = await fetch(`${i.url}/api/v2/workflows`, {
      method: "POST",
      headers: { "X-API-Key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ name: "location", features: ["location"] }),
    });
    return ((await res.json()) as { data: { workflow: { id: string } } }).data.workflow.id;
  };
  return {
    organizationId: dev.organization_id as string,
    apps: [
      { appId: live.app_id as string, apiKey: live.api_key as string, workflowId: await workflow(live.api_key) },
      { appId: test.app_id as string, apiKey: test.api_key as string, workflowId: await workflow(test.api_key) },
    ],
    receiver,
  };
}

/**
 * People verifying at once, each as the hosted page and the customer's
 * backend would: create the session, send a location, finish, read the
 * decision, every call through the SDK's retrying fetch. Returns the
 * answers seen on the way (statuses and network errors), for the report.
 */
export async function people(i: Install, apps: Array<{ apiKey: string; workflowId: string }>, count: number, tag: string) {
  const seen = new Map<string, number>();
  const note = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
  // The SDK's own backoff (exponential with jitter, 250 ms up to 8 s, Retry-After honoured):
  // a client that polls faster spends the IP's rate-limit budget on 429s.
  const client = retryingFetch({
    baseUrl: i.url,
    maxRetries: 40,
    fetch: async (request) => {
      try {
        const res = await fetch(request);
        // The whole body, so a connection cut mid-answer is a network error the client retries.
        const body = await res.arrayBuffer();
        note(String(res.status));
        return new Response(body, { status: res.status, headers: res.headers });
      } catch (err) {
        note("network error");
        throw err;
      }
    },
  });
  const call = async (path: string, init: { method?: string; headers: Record<string, string>; json?: unknown }) => {
    const res = await client(
      new Request(`${i.url}${path}`, {
        method: init.method ?? "POST",
        headers: { ...init.headers, ...(init.json === undefined ? {} : { "content-type": "application/json" }) },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      }),
    );
    const body = (await res.json()) as { success: boolean; data: any };
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return body.data;
  };
  const results = await Promise.all(
    Array.from({ length: count }, async (_, n) => {
      const app = apps[n % apps.length]!;
      const vendorData = `${tag}-${n}`;
      const session = await call("/api/v2/session", { headers: { "X-API-Key": app.apiKey }, json: { workflow_id: app.workflowId, vendor_data: vendorData } });
      const token = { Authorization: `Bearer ${session.session_token}` };
      await call("/api/v2/location", { headers: token, json: { lat: 48.8566 + n / 1000, lng: 2.3522 } });
      await call("/api/v2/flow/finish", { headers: token, json: {} });
      const decision = await call(`/api/v2/session/${session.session_id}/decision`, { method: "GET", headers: { "X-API-Key": app.apiKey } });
      return { vendorData, sessionId: session.session_id as string, status: decision.status as string };
    }),
  );
  return { results, seen };
}

/** Every invariant of the faults part of the issue; returns the figures for the report. */
export async function expectConsistent(i: Install, t: Awaited<ReturnType<typeof tenants>>, tag: string, count: number) {
  const sessions = await sql(
    i.env,
    `SELECT vendor_data, count(*)::int AS n, min(status) AS status FROM sessions WHERE vendor_data LIKE $1 GROUP BY vendor_data`,
    [`${tag}-%`],
  );
  expect(sessions).toHaveLength(count); // every person's session exists...
  expect(sessions.every((s) => s.n === 1)).toBe(true); // ...once, whatever was retried
  expect(sessions.every((s) => ["APPROVED", "DECLINED"].includes(s.status))).toBe(true);

  const ledger = await sql(
    i.env,
    `SELECT l.kind, l.reference, l.amount_cents, l.balance_after_cents FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id
      WHERE w.organization_id = $1 ORDER BY l.created_at`,
    [t.organizationId],
  );
  const charges = ledger.filter((l) => l.amount_cents < 0);
  expect(new Set(charges.map((c) => c.reference)).size).toBe(charges.length); // no double charge
  expect(charges.length).toBe(count); // one location check per session
  expect(ledger.every((l) => l.balance_after_cents >= 0)).toBe(true);
  const [wallet] = await sql(i.env, `SELECT balance_cents FROM wallets WHERE organization_id = $1`, [t.organizationId]);
  expect(wallet.balance_cents).toBe(ledger.reduce((sum, l) => sum + l.amount_cents, 0));

  const events = await sql(i.env, `SELECT id FROM webhook_events WHERE app_id = $1`, [t.apps[1]!.appId]);
  expect(events).toHaveLength(Math.floor(count / 2)); // one event per decided test-app session
  await t.receiver.waitFor((r) => new Set(r.processed.map((e) => e.event_id)).size === events.length, 90_000);
  const received = t.receiver.received.filter((r) => r.status === 200 && !r.duplicate).length;
  const duplicates = t.receiver.received.filter((r) => r.duplicate).length;
  expect(new Set(t.receiver.processed.map((e) => e.event_id))).toEqual(new Set(events.map((e) => e.id)));
  return { created: events.length, received, duplicates, posts: t.receiver.received.length };
}


/** Resolves once `count` of the load's sessions exist: the fault then lands in the middle of it. */
export async function loadUnderway(i: Install, tag: string, count = 3) {
  const made = async () => (await sql(i.env, `SELECT count(*)::int AS n FROM sessions WHERE vendor_data LIKE $1`, [`${tag}-%`]))[0].n as number;
  await expect.poll(made, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(count);
}
