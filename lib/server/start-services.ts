import { ConfigError, env } from "@/lib/config/env";
import { keyring } from "@/lib/crypto/encryption-key";
import { captureStableSecrets } from "@/lib/crypto/stable-secrets";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import { DEMO_EMAIL, demoCredentialsFile, ensureDemo } from "@/lib/tenancy/demo";
import { startWebhookWorker } from "@/lib/webhooks/worker";
import { startJobWorkers } from "@/lib/server/job-workers";
import { warnIfSweepIntervalSet } from "@/lib/server/scheduled-jobs";
import { logWebhookDestinationPolicy } from "@/lib/webhooks/allowed-networks";
import { warmVision } from "@/lib/vision/pool";
import { warmGalleryIndex } from "@/lib/faces/gallery-index";
import { registerHttpEdge } from "@/lib/http/edge";
import { LEAN_ROUTES } from "./lean-routes";
import { registerDomainRouteCallers } from "./route-callers";
import { registerAppDataMigrations } from "@/lib/operations/data-migrations";

/**
 * Runs once per server process before the first request (instrumentation.ts):
 * gives the HTTP core the callers the domains recognise (./route-callers.ts),
 * validates configuration (production refuses to start without an
 * ENCRYPTION_KEY), opens and migrates the database, captures the keys that
 * must outlive a key rotation (lib/crypto/stable-secrets.ts), and in development on an
 * empty database creates the demo account and prints how to sign in; starts
 * (unless WEBHOOK_WORKER=off) the webhook worker, (unless JOB_WORKER=off) the
 * background jobs (emails, and the periodic jobs of ./scheduled-jobs.ts: session
 * expiry, purges, seat billing...) and (unless VISION_PRELOAD=off) loads the vision models in their threads;
 * loads the 1:N face search index in the background; then hands server.mjs the node:http edge (lib/http/edge.ts).
 */
export async function startServerServices() {
  try {
    registerDomainRouteCallers();
    registerAppDataMigrations();
    const config = env();
    keyring();
    const prisma = await db();
    // Before any ENCRYPTION_KEY rotation can change it (lib/crypto/stable-secrets.ts).
    await captureStableSecrets();
    if (!config.isProduction) await announceDemo(prisma);
    warnIfSweepIntervalSet();
    logWebhookDestinationPolicy();
    if (config.WEBHOOK_WORKER === "on") startWebhookWorker();
    if (config.JOB_WORKER === "on") void startJobWorkers();
    if (config.VISION_PRELOAD === "on") {
      warmVision()
        .then(({ model, runtime, models }) => logger.info("vision models loaded", { model, runtime, models }))
        .catch((err) => logger.error("vision models did not load; checks will answer 502 until they do", { error: (err as Error).message }));
    }
    warmGalleryIndex();
    // Last: server.mjs holds requests until the edge is registered.
    registerHttpEdge(config.isProduction ? LEAN_ROUTES : {});
  } catch (err) {
    const message = err instanceof ConfigError ? err.message : `Startup failed: ${(err as Error).stack ?? err}`;
    process.stderr.write(`\n${message}\n\n`);
    process.exit(1);
  }
}

/** Where a developer signs in to the portal (printed next to the demo account). */
function portalSignInUrl(): string {
  return `${env().PUBLIC_BASE_URL}/sign-in`;
}

async function announceDemo(prisma: Awaited<ReturnType<typeof db>>) {
  const developers = await prisma.developer.count();
  if (developers === 0) {
    const demo = await ensureDemo();
    logger.info("demo account created");
    process.stdout.write(
      [
        "",
        "  Demo account (development only):",
        `    portal:         ${portalSignInUrl()}`,
        `    sign in:        ${demo.email} / ${demo.password}`,
        `    API key:        ${demo.api_key}`,
        `    OIDC client:    ${demo.client_id} / ${demo.client_secret}`,
        `    saved to:       ${demoCredentialsFile()}`,
        "    print again:    npm run -s svc -- demo",
        "",
      ].join("\n") + "\n",
    );
  } else {
    process.stdout.write(
      `\n  Developer portal: ${portalSignInUrl()} (demo account: ${DEMO_EMAIL})\n  Demo credentials: ${demoCredentialsFile()} (or: npm run -s svc -- demo)\n\n`,
    );
  }
}
