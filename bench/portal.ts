// Portal part of `npm run bench` (alone: `npm run bench:portal`): how fast the
// developer portal's busiest pages render on the server when one
// organization has 100,000 sessions and 100,000 webhook deliveries.
//
// One app is seeded in SQL (sessions over 90 days in every status, ~2% in
// review with their check results; events with a delivery and 1-3 attempts
// each); a second, empty organization is the baseline of the same run. A
// signed-in developer (next-auth, as a browser) then requests each page one
// at a time: the server render of the page, first paint included (the HTML
// of the server components and their data), as a browser's first visit.
// Reported: p50 and p95 over BENCH_PORTAL_REQUESTS (default 100) requests a
// page, and the ratio against the same page of the empty organization.
// Target: p95 < 200 ms for the sessions list and the review queue.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { cli } from "../tests/support/cli";
import { signInOverHttp } from "../tests/support/portal";
import { startServer } from "../tests/support/server";
import { createBenchInstall } from "./database";
import { printTable } from "./table";
import { createBenchTenant } from "./tenant";

const SESSIONS = Number(process.env.BENCH_PORTAL_SESSIONS ?? 100_000);
const DELIVERIES = Number(process.env.BENCH_PORTAL_DELIVERIES ?? 100_000);
const REQUESTS = Number(process.env.BENCH_PORTAL_REQUESTS ?? 100);

export type PortalRow = { page: string; p50: number; p95: number; emptyP95: number; bytes: number };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The pages measured, for an app id (paths of app/(portal)/dashboard). */
function pages(appId: string, sessionId: string): { name: string; path: string }[] {
  const base = `/dashboard/apps/${appId}`;
  return [
    { name: "sessions list (newest first)", path: `${base}/sessions` },
    { name: "sessions list, status=DECLINED", path: `${base}/sessions?status=DECLINED` },
    { name: "sessions list, vendor_data=user-4242", path: `${base}/sessions?vendor_data=user-4242` },
    { name: "review queue", path: `${base}/review` },
    { name: "session page", path: `${base}/sessions/${sessionId}` },
    { name: "webhook delivery log", path: `${base}/webhooks` },
  ];
}

/**
 * 100,000 sessions of one app over the last 90 days, and the check results
 * of those in review. Open sessions are not yet due (as the expiry sweeper
 * keeps them): a list read first ends the app's overdue sessions.
 */
async function seedSessions(db: pg.Client, appId: string, workflowId: string, count: number) {
  await db.query(
    `INSERT INTO sessions (id, app_id, workflow_id, workflow_snapshot, features, status, vendor_data, session_token_hash,
                           expires_at, created_at, updated_at, decided_at)
     SELECT gen_random_uuid()::text, $1, $2,
            jsonb_build_object('id', $2::text, 'name', 'bench', 'features', jsonb_build_array('id_verification', 'liveness', 'face_match'), 'settings', '{}'::jsonb),
            ARRAY['id_verification', 'liveness', 'face_match'],
            (ARRAY['APPROVED','APPROVED','APPROVED','DECLINED','EXPIRED','ABANDONED','NOT_STARTED','IN_PROGRESS'])[1 + i % 8],
            'user-' || (i % 50000), encode(sha256(('bench' || i)::bytea), 'hex'),
            now() + interval '1 day', t, t, CASE WHEN i % 8 < 4 THEN t + interval '5 minutes' END
       FROM generate_series(1, $3::int) AS i, LATERAL (SELECT now() - (i * (90 * 86400.0 / $3)) * interval '1 second' AS t) AS at`,
    [appId, workflowId, count],
  );
  // About 2% in review, each with the check results a reviewer reads.
  const { rows } = await db.query<{ id: string }>(
    `UPDATE sessions SET status = 'IN_REVIEW', decided_at = NULL
      WHERE id IN (SELECT id FROM sessions WHERE app_id = $1 ORDER BY session_token_hash LIMIT $2) RETURNING id`,
    [appId, Math.round(count / 50)],
  );
  await db.query(
    `INSERT INTO check_results (id, session_id, type, status, score, data, updated_at)
     SELECT gen_random_uuid()::text, s.id, c.type, c.status, c.score, '{}'::jsonb, now()
       FROM unnest($1::text[]) AS s(id),
            (VALUES ('id_verification', 'passed', 0.97), ('liveness', 'passed', 0.91), ('face_match', 'review', 0.57)) AS c(type, status, score)`,
    [rows.map((r) => r.id)],
  );
}

/** 100,000 events of the app, each with one delivery and 1-3 attempts. */
async function seedDeliveries(db: pg.Client, appId: string, endpointId: string, url: string, count: number) {
  await db.query(
    `WITH e AS (
       INSERT INTO webhook_events (id, app_id, type, payload, state, created_at, delivered_at)
       SELECT 'evt_bench_' || i, $1, 'verification.completed', jsonb_build_object('event_id', 'evt_bench_' || i), 'delivered', t, t
         FROM generate_series(1, $4::int) AS i, LATERAL (SELECT now() - (i * (90 * 86400.0 / $4)) * interval '1 second' AS t) AS at
       RETURNING id, created_at),
     d AS (
       INSERT INTO webhook_deliveries (id, event_id, app_id, endpoint_id, url, state, attempt_count, next_attempt_at, last_status, created_at, updated_at, delivered_at)
       SELECT gen_random_uuid()::text, e.id, $1, $2, $3, 'succeeded', 1 + length(e.id) % 3, e.created_at, 200, e.created_at, e.created_at, e.created_at FROM e
       RETURNING id, attempt_count, created_at)
     INSERT INTO webhook_attempts (id, delivery_id, number, started_at, ended_at, outcome, duration_ms, status_code, response_snippet)
     SELECT gen_random_uuid()::text, d.id, n, d.created_at + n * interval '1 minute', d.created_at + n * interval '1 minute',
            CASE WHEN n = d.attempt_count THEN 'succeeded' ELSE 'failed' END, 40, CASE WHEN n = d.attempt_count THEN 200 ELSE 503 END, 'ok'
       FROM d, generate_series(1, d.attempt_count) AS n`,
    [appId, endpointId, url, count],
  );
}

async function timePage(base: string, cookie: string, path: string, requests: number): Promise<{ sorted: number[]; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < requests + 3; i++) {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { headers: { cookie } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    if (i >= 3) times.push(performance.now() - started); // the first requests warm the route
    bytes = body.length;
  }
  return { sorted: times.sort((a, b) => a - b), bytes };
}

export async function portalBench(): Promise<PortalRow[]> {
  const install = await createBenchInstall("portal");
  const env = install.env;
  const server = await startServer({ ...env, RATE_LIMIT_PER_MINUTE: "100000000", WEBHOOK_WORKER: "off", PORTAL_SIGN_IN_ATTEMPTS_PER_ACCOUNT: "1000" });
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  try {
    const setUp = async (label: string) => {
      const email = `${label}-${randomUUID()}@example.com`;
      const password = "bench-password-1";
      const tenant = await createBenchTenant(server.url, env, { email, password, label });
      const hook = await cli(["webhook:create", "--app", tenant.appId, "--url", "https://hooks.example.com/svc", "--approve"], env);
      const signIn = await signInOverHttp(email, password, server.url);
      if (!signIn.signedIn) throw new Error(`sign-in failed: ${signIn.status} ${signIn.error}`);
      return { ...tenant, hookId: hook.webhook_id as string, cookie: signIn.cookie };
    };
    const busy = await setUp("busy");
    const empty = await setUp("empty");
    const seeding = performance.now();
    await seedSessions(db, busy.appId, busy.workflowId, SESSIONS);
    await seedDeliveries(db, busy.appId, busy.hookId, "https://hooks.example.com/svc", DELIVERIES);
    await db.query("ANALYZE");
    process.stderr.write(`[portal] seeded ${SESSIONS} sessions and ${DELIVERIES} deliveries in ${((performance.now() - seeding) / 1000).toFixed(0)} s\n`);

    const rows: PortalRow[] = [];
    const emptyPages = pages(empty.appId, empty.sessionId);
    for (const [i, page] of pages(busy.appId, busy.sessionId).entries()) {
      const emptyRun = await timePage(server.url, empty.cookie, emptyPages[i]!.path, REQUESTS);
      const run = await timePage(server.url, busy.cookie, page.path, REQUESTS);
      rows.push({ page: page.name, p50: percentile(run.sorted, 50), p95: percentile(run.sorted, 95), emptyP95: percentile(emptyRun.sorted, 95), bytes: run.bytes });
    }
    return rows;
  } finally {
    await db.end();
    await server.stop();
    await install.drop();
  }
}

export function printPortal(rows: PortalRow[]) {
  printTable(
    ["page", "p50 ms", "p95 ms", "empty p95", "x empty", "KiB"],
    rows.map((r) => [r.page, r.p50.toFixed(1), r.p95.toFixed(1), r.emptyP95.toFixed(1), (r.p95 / r.emptyP95).toFixed(2), (r.bytes / 1024).toFixed(0)]),
  );
  console.log(`targets: p95 < 200 ms for the sessions list and the review queue with ${SESSIONS.toLocaleString("en")} sessions and ${DELIVERIES.toLocaleString("en")} deliveries in one organization; "x empty": against the same page of an empty organization in the same run`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  portalBench().then(
    (rows) => printPortal(rows),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
