// `npm run bench`: throughput and latency of the API against the production
// server on PostgreSQL, beside the stack's ceiling (a bare route handler) in
// the same run. Needs `next build` (done here when missing) and a PostgreSQL
// server: BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres);
// a database of its own is created and dropped. BENCH_SECONDS (default 10) per endpoint.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import autocannon from "autocannon";
import { startServer } from "../tests/support/server";
import { createBenchInstall } from "./database";
import { oidcBench, printOidc } from "./oidc";
import { galleryBench, printGallery } from "./gallery";
import { orgBench, printOrg } from "./org";
import { portalBench, printPortal } from "./portal";
import { printVision, visionBench } from "./vision";
import { printTable } from "./table";
import { createBenchTenant } from "./tenant";
import { webhookBench } from "./webhooks";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

type Row = { name: string; rps: number; p50: number; p99: number; errors: number };

async function measure(name: string, opts: autocannon.Options): Promise<Row> {
  const result = await autocannon({ connections, duration: seconds, ...opts });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

async function main() {
  if (!fs.existsSync(".next/BUILD_ID")) {
    const build = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
    if (build.status !== 0) process.exit(1);
  }
  const install = await createBenchInstall("api");
  const env = install.env;
  // The web server leaves webhook delivery to the worker processes of the webhook benchmark.
  const server = await startServer({ ...env, RATE_LIMIT_PER_MINUTE: "100000000", WEBHOOK_WORKER: "off" });
  try {
    const tenant = await createBenchTenant(server.url, env, { email: "bench@example.com", password: "bench-password-1", label: "Bench" });
    const { headers, workflowId } = tenant;

    // Warm up every route once (first requests compile and load modules).
    await measure("warmup", { url: `${server.url}/api/health/live`, duration: 1 });

    const rows: Row[] = [];
    rows.push(await measure("bare route handler (GET /api/health/live)", { url: `${server.url}/api/health/live` }));
    rows.push(
      await measure("session create (POST /api/v2/session)", {
        url: `${server.url}/api/v2/session`,
        method: "POST",
        headers,
        body: JSON.stringify({ workflow_id: workflowId, vendor_data: "bench" }),
      }),
    );
    rows.push(
      await measure("decision read (GET /api/v2/session/{id}/decision)", {
        url: `${server.url}/api/v2/session/${tenant.sessionId}/decision`,
        headers,
      }),
    );

    const ceiling = rows[0]!.rps;
    console.log(`\n${connections} connections, ${seconds} s each, PostgreSQL, one server process\n`);
    printTable(
      ["endpoint", "req/s", "p50 ms", "p99 ms", "errors", "of bare"],
      rows.map((r) => [r.name, r.rps.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1), String(r.errors), `${((r.rps / ceiling) * 100).toFixed(0)}%`]),
    );
    const [, create, decision] = rows;
    console.log(`\ntargets: session create >= 30% of bare (${((create!.rps / ceiling) * 100).toFixed(0)}%), decision read >= 50% (${((decision!.rps / ceiling) * 100).toFixed(0)}%)`);

    console.log(`\nOpenID Connect: this server (PostgreSQL) beside node-oidc-provider (in-memory adapter), ${connections} connections, ${seconds} s each\n`);
    printOidc(await oidcBench(server.url, env, seconds, connections));

    console.log("\nwebhooks: 2,000 events at once (throughput), then 250/s for 5 s (lag from commit to receipt)\n");
    console.log("workers".padEnd(10), "events/s".padStart(10), "lag p50 ms".padStart(12), "lag p99 ms".padStart(12));
    for (const r of await webhookBench(env)) {
      console.log(String(r.workers).padEnd(10), r.throughput.toFixed(0).padStart(10), r.p50.toFixed(0).padStart(12), r.p99.toFixed(0).padStart(12));
    }
    console.log("targets: >= 200 deliveries/s, lag p50 < 1000 ms");

    console.log("\nvision: inference in the worker pool (fixtures of tests/fixtures)\n");
    printVision(await visionBench());

    console.log("\ndeveloper portal: server render of its busiest pages (bench/portal.ts; alone: npm run bench:portal)\n");
    printPortal(await portalBench());

    console.log("\norganization API: add 500 members, list 10,000 (bench/org.ts; alone: npm run bench:org)\n");
    printOrg(await orgBench());

    console.log("\n1:N face search (bench/gallery.ts; alone: npm run bench:gallery)\n");
    printGallery(await galleryBench());
  } finally {
    await server.stop();
    await install.drop();
  }
}

void main();
