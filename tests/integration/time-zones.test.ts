import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, keyHeader, type Tenant } from "../support/api";
import { createTestDatabase, sql, testDatabaseKind, type TestDatabase } from "../support/database";
import { startServer, type RunningServer } from "../support/server";

/**
 * Every timestamp is `timestamptz` and the app's connections run in UTC,
 * so instants are right whatever the database's TimeZone. This file runs a
 * production server on a PostgreSQL database whose TimeZone is
 * Pacific/Kiritimati (UTC+14, `ALTER DATABASE ... SET timezone`). Sessions
 * are created, expired and decided, a wallet is charged and OIDC tokens are
 * issued; each stored instant must be the real one (a zone mistake is off by
 * 14 hours). Not on the embedded database: PGlite ignores a database's
 * TimeZone setting and has one session, the app's own, in UTC; a zone can
 * only be set for that very session (the migration test does, for the
 * migration to timestamptz).
 */
const ZONE = "Pacific/Kiritimati";
/** Far below the 14 hours a zone mistake would show, far above any delay on a busy machine. */
const SLACK_MS = 10 * 60_000;

let database: TestDatabase;
let server: RunningServer;
let env: Record<string, string>;
let t: Tenant;

async function setDatabaseTimeZone() {
  const name = new URL(database.env.DATABASE_URL!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`ALTER DATABASE "${name}" SET timezone TO '${ZONE}'`);
  await admin.end();
}

const onPostgres = testDatabaseKind() === "postgres";

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase("tz", { empty: true });
  env = { ...database.env, ENCRYPTION_KEY: randomBytes(32).toString("hex") };
  await setDatabaseTimeZone(); // before the server starts: its migrations run in this zone too
  server = await startServer({ ...env, CREDENTIAL_CACHE_MS: "0" });
  // The domain functions this file calls itself use the same database.
  for (const key of ["DATABASE_URL", "DATA_DIR", "ENCRYPTION_KEY"]) {
    if (env[key] !== undefined) process.env[key] = env[key];
    else delete process.env[key];
  }
  process.env.PUBLIC_BASE_URL = server.url;
  t = await createTenant(env);
});

afterAll(async () => {
  if (!onPostgres) return;
  const { setClock } = await import("@/lib/clock");
  setClock(null);
  const { disconnectDb } = await import("@/lib/db/client");
  await disconnectDb();
  await server?.stop();
  await database?.drop();
});

const call = (method: string, path: string, options: Parameters<typeof api>[2] = {}) => api(method, path, { ...options, base: server.url });

async function workflow(features: string[]): Promise<string> {
  const res = await call("POST", "/api/v2/workflows", { headers: keyHeader(t), json: { name: features.join("+"), features } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.workflow.id;
}

async function session(workflowId: string, extra: Record<string, unknown> = {}) {
  const res = await call("POST", "/api/v2/session", { headers: keyHeader(t), json: { workflow_id: workflowId, ...extra } });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { session_id: string; session_token: string; expires_at: string };
}

function expectNear(actual: Date | string, expected: number) {
  const ms = new Date(actual).getTime();
  expect(Math.abs(ms - expected), `${new Date(actual).toISOString()} vs ${new Date(expected).toISOString()}`).toBeLessThan(SLACK_MS);
}

describe.skipIf(!onPostgres)(`timestamps on a PostgreSQL database in ${ZONE}`, () => {
  it("the database really is in that zone", async () => {
    const [row] = await sql(env, "SELECT current_setting('TimeZone') AS zone, to_char(now(), 'OF') AS offset");
    expect(row).toEqual({ zone: ZONE, offset: "+14" });
  });

  it("a session's expires_at, created_at and its expiry are right", async () => {
    const wf = await workflow(["liveness"]);
    const before = Date.now();
    const s = await session(wf, { ttl_seconds: 300 });
    expectNear(s.expires_at, before + 300_000);
    const [row] = await sql(env, "SELECT created_at, expires_at FROM sessions WHERE id = $1", [s.session_id]);
    expectNear(row.created_at, before);
    expect(new Date(row.expires_at).toISOString()).toBe(s.expires_at);

    // Still open when read now (a zone mistake of -14 h would expire it at once, +14 h keep it for 14 h).
    const read = await call("GET", `/api/v2/session/${s.session_id}`, { headers: keyHeader(t) });
    expect(read.body.data.status).toBe("NOT_STARTED");
    expect(read.body.data.expires_at).toBe(s.expires_at);

    // One second past its expiry (written as an instant), the server's read expires it.
    const expiresAt = new Date(Date.now() - 1000);
    await sql(env, "UPDATE sessions SET expires_at = $2::timestamptz WHERE id = $1", [s.session_id, expiresAt.toISOString()]);
    const expired = await call("GET", `/api/v2/session/${s.session_id}`, { headers: keyHeader(t) });
    expect(expired.body.data.status).toBe("EXPIRED");
    expect(expired.body.data.expires_at).toBe(expiresAt.toISOString());
    expectNear(expired.body.data.completed_at, Date.now());
  });

  it("the sweeper's expiry instant is stored as given", async () => {
    const { expireDueSessions } = await import("@/lib/sessions/expire-sessions");
    const s = await session(await workflow(["age"]), { ttl_seconds: 300 });
    const at = new Date(new Date(s.expires_at).getTime() + 1000);
    expect(await expireDueSessions({ appId: t.appId, at })).toBe(1);
    const read = await call("GET", `/api/v2/session/${s.session_id}`, { headers: keyHeader(t) });
    expect(read.body.data.status).toBe("EXPIRED");
    expect(read.body.data.completed_at).toBe(at.toISOString());
  });

  it("a finished session's decided_at is now", async () => {
    const s = await session(await workflow(["location"]));
    const finished = await call("POST", "/api/v2/flow/finish", { headers: { authorization: `Bearer ${s.session_token}` } });
    expect(finished.status, finished.text).toBe(200);
    const decision = await call("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
    expect(decision.body.data.status).toBe("DECLINED");
    expectNear(decision.body.data.decided_at, Date.now());
    const [row] = await sql(env, "SELECT decided_at FROM sessions WHERE id = $1", [s.session_id]);
    expect(new Date(row.decided_at).toISOString()).toBe(decision.body.data.decided_at);
  });

  it("a wallet charge's ledger row and the wallet's updated_at are now", async () => {
    const { recordCheckResult } = await import("@/lib/sessions/record-check");
    const s = await session(await workflow(["liveness"]));
    const before = Date.now();
    const { charged } = await recordCheckResult({ sessionId: s.session_id, type: "liveness", status: "passed" });
    expect(charged).toBe(true);
    const [entry] = await sql(
      env,
      `SELECT l.created_at, w.updated_at FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id
        WHERE l.reference = $1`,
      [`check:${s.session_id}:liveness`],
    );
    expectNear(entry.created_at, before);
    expectNear(entry.updated_at, before);
    const [started] = await sql(env, "SELECT started_at FROM sessions WHERE id = $1", [s.session_id]);
    expectNear(started.started_at, before);
  });

  it("OIDC tokens expire when they should: a fresh access token works, one issued 16 minutes ago does not", async () => {
    const { setClock } = await import("@/lib/clock");
    const { signInAccountByEmail } = await import("@/lib/accounts/accounts");
    const { createGrantWithCode } = await import("@/lib/oidc/grants/create-grant");
    const { issueFirstTokens } = await import("@/lib/oidc/grants/issue-tokens");
    const account = await signInAccountByEmail(`tz${Date.now()}@example.com`);
    const issueAt = async (ms: number) => {
      setClock({ now: () => new Date(ms) });
      try {
        const authTime = new Date(ms);
        const { grantId } = await createGrantWithCode({
          appId: t.appId, accountId: account.id, scope: "openid profile", nonce: null, authTime,
          redirectUri: "http://localhost:8080/callback", codeChallenge: null,
        });
        const grant = { grantId, accountId: account.id, scope: "openid profile", nonce: null, authTime, expiresAt: new Date(ms + 24 * 3600_000) };
        return await issueFirstTokens(grant, { clientId: t.clientId, organizationId: t.organizationId });
      } finally {
        setClock(null);
      }
    };
    const userinfo = (token: string) => call("GET", "/api/auth/oidc/userinfo", { headers: { authorization: `Bearer ${token}` } });

    const issued = Date.now();
    const fresh = await issueAt(issued);
    expect((await userinfo(fresh.access_token)).status).toBe(200);
    const [row] = await sql(env, "SELECT expires_at FROM oidc_access_tokens ORDER BY created_at DESC LIMIT 1");
    expect(new Date(row.expires_at).getTime()).toBe(issued + fresh.expires_in * 1000);

    const old = await issueAt(Date.now() - 16 * 60_000);
    expect((await userinfo(old.access_token)).status).toBe(401);

    // The refresh token of the old login is still good (its login lasts 24 hours) and rotates.
    const refreshed = await call("POST", "/api/auth/oidc/token", {
      raw: new URLSearchParams({
        grant_type: "refresh_token", refresh_token: old.refresh_token, client_id: t.clientId, client_secret: t.clientSecret,
      }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect((await userinfo(refreshed.body.access_token)).status).toBe(200);
  });
});
