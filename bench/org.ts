// Organization API part of `npm run bench` (alone: `npm run bench:org`), on
// PostgreSQL (BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres;
// a database of its own is created and dropped) and on the embedded database:
//   - adding 500 members in one call with their invitations queued for email
//     (a local SMTP server receives them from the background job);
//   - listing a roster of 10,000 members (GET /api/sdk/members);
// beside the bare route handler (GET /api/health/live) of the same server in
// the same run. Targets (issue #15): an add of 500 under 2 s, the list under 300 ms.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { cli } from "../tests/support/cli";
import { startServer, type RunningServer } from "../tests/support/server";
import { createBenchInstall } from "./database";
import { startSmtp } from "../tests/support/smtp";
import { printTable } from "./table";

const ROUNDS = Number(process.env.BENCH_ORG_ROUNDS ?? 5);
const ROSTER = 10_000;

export type OrgRow = { database: string; measure: string; p50: number; max: number; baseline: number; target: number };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(run: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await run();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return performance.now() - started;
}

async function measureServer(label: string, server: RunningServer, env: Record<string, string>): Promise<OrgRow[]> {
  const dev = await cli(["developer:create", "--email", `org-bench-${randomBytes(4).toString("hex")}@example.com`, "--password", "bench-password-1"], env);
  const app = await cli(["app:create", "--org", dev.organization_id, "--name", "Org bench", "--env", "production"], env);
  const headers = { "content-type": "application/json", "X-Client-Id": app.client_id, "X-Client-Secret": app.client_secret };
  const bare = () => fetch(`${server.url}/api/health/live`);
  const list = () => fetch(`${server.url}/api/sdk/members`, { headers });
  const add = (round: number) =>
    fetch(`${server.url}/api/sdk/members`, {
      method: "POST",
      headers,
      body: JSON.stringify({ members: Array.from({ length: 500 }, (_, i) => ({ email: `r${round}-m${i}@bench.example`, first_name: "Bench" })), invite: "email" }),
    });
  // Warm up each route once (first requests load modules).
  await timed(bare);
  await timed(list);
  const baseline: number[] = [];
  const adds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    baseline.push(await timed(bare));
    adds.push(await timed(() => add(round)));
  }
  // Fill the roster to 10,000 (role member) with more adds, then list it.
  for (let round = ROUNDS; round < ROSTER / 500; round++) await timed(() => add(round));
  const lists: number[] = [];
  const bareAgain: number[] = [];
  for (let i = 0; i < 20; i++) {
    bareAgain.push(await timed(bare));
    lists.push(await timed(list));
  }
  const listed = (await (await list()).json()) as { data: { members: unknown[] } };
  if (listed.data.members.length !== ROSTER) throw new Error(`listed ${listed.data.members.length} members, expected ${ROSTER}`);
  return [
    { database: label, measure: "add 500 members (invitations queued for email)", p50: median(adds), max: Math.max(...adds), baseline: median(baseline), target: 2000 },
    { database: label, measure: `list a roster of ${ROSTER.toLocaleString("en")}`, p50: median(lists), max: Math.max(...lists), baseline: median(bareAgain), target: 300 },
  ];
}

export async function orgBench(): Promise<OrgRow[]> {
  const smtp = await startSmtp();
  const rows: OrgRow[] = [];
  const mail = { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), RATE_LIMIT_PER_MINUTE: "100000000", JOB_WORKER: "on" };
  try {
    const install = await createBenchInstall("org");
    const pgEnv = install.env;
    const server = await startServer({ ...pgEnv, ...mail });
    try {
      rows.push(...(await measureServer("PostgreSQL", server, pgEnv)));
    } finally {
      await server.stop();
      await install.drop();
    }
    const embeddedEnv = { DATA_DIR: fs.mkdtempSync(path.join("/tmp", "svc-bench-org-embedded-")), ENCRYPTION_KEY: randomBytes(32).toString("hex") };
    const embedded = await startServer({ ...embeddedEnv, ...mail });
    try {
      rows.push(...(await measureServer("embedded (PGlite)", embedded, embeddedEnv)));
    } finally {
      await embedded.stop();
      fs.rmSync(embeddedEnv.DATA_DIR, { recursive: true, force: true });
    }
  } finally {
    await smtp.stop();
  }
  return rows;
}

export function printOrg(rows: OrgRow[]) {
  printTable(
    ["database", "measure", "p50 ms", "max ms", "bare route p50 ms", "ratio to bare", "target ms", "met"],
    rows.map((r) => [r.database, r.measure, r.p50.toFixed(0), r.max.toFixed(0), r.baseline.toFixed(1), `${(r.p50 / r.baseline).toFixed(0)}x`, String(r.target), r.p50 < r.target ? "yes" : "NO"]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  orgBench().then(
    (rows) => printOrg(rows),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
