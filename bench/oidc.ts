// OpenID Connect part of `npm run bench`: the token endpoint (refresh grant,
// rotating) and userinfo of this server, beside node-oidc-provider (npm
// `oidc-provider`, the certified reference, with its default in-memory
// adapter) configured for the same grant: client_secret_post, rotating
// refresh tokens, an RS256 ID token on every refresh, userinfo with the same
// claims. Both run in their own process on this machine, in the same run,
// measured by the same autocannon settings.
//
// Every refresh uses a fresh token: a pool of refresh tokens feeds the
// requests and each response puts its new token back (a token used twice
// would be a replay and revoke the family).
//
// Run alone as `tsx bench/oidc.ts --reference` it is the reference server: it
// prints one JSON line with its URL and credentials, then serves.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import readline from "node:readline";
import autocannon from "autocannon";
import { cli } from "../tests/support/cli";
import { ROOT } from "../tests/support/server";

const REDIRECT = "http://localhost:8080/callback";
// Each run ends with up to `connections` refreshes in flight whose new tokens are never read: a chain lost per connection per run.
const POOL = 256;

type Target = { url: string; tokenPath: string; userinfoPath: string; clientId: string; clientSecret: string; refreshTokens: string[]; accessToken: string };
export type OidcRow = { name: string; rps: number; p50: number; p99: number; errors: number };
export type OidcResult = { ours: { refresh: OidcRow; userinfo: OidcRow }; reference: { refresh: OidcRow; userinfo: OidcRow } };

// ------------------------------------------------------------------ reference server

async function referenceServer() {
  // oidc-provider ships no type declarations.
  const specifier = "oidc-provider";
  const { default: Provider } = await import(specifier);
  const jose = await import("jose");
  const { privateKey } = await jose.generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const jwk = { ...(await jose.exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "bench" };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientSecret = randomBytes(24).toString("base64url");
  const email = "bench-user@example.com";
  const provider = new Provider(url, {
    clients: [
      {
        client_id: "bench",
        client_secret: clientSecret,
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [jwk] },
    scopes: ["openid", "profile"],
    claims: { openid: ["sub"], profile: ["email", "email_verified", "preferred_username", "name"] },
    async findAccount(_ctx: unknown, sub: string) {
      return { accountId: sub, claims: async () => ({ sub, email, email_verified: true, preferred_username: email }) };
    },
    // Like this server: a refresh token with every code, rotated on every use.
    issueRefreshToken: async () => true,
    rotateRefreshToken: true,
    ttl: { AccessToken: 900, RefreshToken: 86400, IdToken: 3600, Grant: 86400 },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [randomBytes(32).toString("hex")] },
  });
  server.on("request", provider.callback());

  const client = await provider.Client.find("bench");
  const accountId = "bench-account";
  const authTime = Math.floor(Date.now() / 1000);
  // One Grant per refresh chain, as this server makes one grant per
  // authorization: under one shared Grant the reference's memory adapter
  // re-walks every token of the grant on each save and slows as they pile
  // up (836, 442, 388 req/s over three rounds), which measured the setup,
  // not the provider (issue 33).
  const newGrant = async () => {
    const grant = new provider.Grant({ accountId, clientId: "bench" });
    grant.addOIDCScope("openid profile");
    return grant.save() as Promise<string>;
  };
  const refreshTokens: string[] = [];
  for (let i = 0; i < POOL; i++) {
    const rt = new provider.RefreshToken({ accountId, client, grantId: await newGrant(), scope: "openid profile", gty: "authorization_code", authTime, nonce: "n" });
    refreshTokens.push(await rt.save());
  }
  const at = new provider.AccessToken({ accountId, client, grantId: await newGrant(), scope: "openid profile", gty: "authorization_code" });
  const accessToken = await at.save();
  const target: Target = { url, tokenPath: "/token", userinfoPath: "/me", clientId: "bench", clientSecret, refreshTokens, accessToken };
  process.stdout.write(`${JSON.stringify(target)}\n`);
}

function startReference(): Promise<{ target: Target; stop(): void }> {
  const tsx = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
  const child = spawn(process.execPath, [tsx, "bench/oidc.ts", "--reference"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    // Whatever ends this process (a crash included) ends the reference too.
    const stop = () => child.kill("SIGTERM");
    process.once("exit", stop);
    lines.once("line", (line) => resolve({ target: JSON.parse(line) as Target, stop }));
    child.once("exit", (code) => reject(new Error(`oidc-provider reference exited with ${code}`)));
  });
}

// ------------------------------------------------------------------ this server

async function ourTarget(serverUrl: string, env: Record<string, string>): Promise<Target> {
  const dev = await cli(["developer:create", "--email", `oidc-bench-${randomBytes(4).toString("hex")}@example.com`, "--password", "bench-password-1"], env);
  const app = await cli(["app:create", "--org", dev.organization_id, "--name", "OIDC bench", "--env", "test"], env);
  await cli(["app:redirect-uri", "--app", app.app_id, "--uri", REDIRECT], env);
  await cli(["app:scopes", "--app", app.app_id, "--scopes", "openid profile"], env);
  // The sign-in itself (email code, consent) is not measured: grants and codes
  // are made by the same domain function consent uses, then exchanged over HTTP.
  Object.assign(process.env, { DATABASE_URL: env.DATABASE_URL, DATA_DIR: env.DATA_DIR, ENCRYPTION_KEY: env.ENCRYPTION_KEY });
  const { signInAccountByEmail } = await import("../lib/accounts/accounts");
  const { createGrantWithCode } = await import("../lib/oidc/grants/create-grant");
  const { disconnectDb } = await import("../lib/db/client");
  const account = await signInAccountByEmail("bench-user@example.com");
  const refreshTokens: string[] = [];
  let accessToken = "";
  for (let i = 0; i < POOL; i++) {
    const { code } = await createGrantWithCode({
      appId: app.app_id,
      accountId: account.id,
      scope: "openid profile",
      nonce: "n",
      authTime: new Date(),
      redirectUri: REDIRECT,
      codeChallenge: null,
    });
    const res = await fetch(`${serverUrl}/api/auth/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret }),
    });
    const body = (await res.json()) as { refresh_token: string; access_token: string };
    if (res.status !== 200) throw new Error(`oidc bench: code exchange failed: ${JSON.stringify(body)}`);
    refreshTokens.push(body.refresh_token);
    accessToken = body.access_token;
  }
  await disconnectDb();
  return { url: serverUrl, tokenPath: "/api/auth/oidc/token", userinfoPath: "/api/auth/oidc/userinfo", clientId: app.client_id, clientSecret: app.client_secret, refreshTokens, accessToken };
}

// ------------------------------------------------------------------ measuring

async function run(name: string, opts: autocannon.Options): Promise<OidcRow> {
  const result = await autocannon(opts);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

async function measureTarget(label: string, t: Target, seconds: number, connections: number) {
  // The live refresh tokens: each run takes from and gives back to the same pool, so rounds can follow each other.
  const pool = t.refreshTokens;
  // A request that fails, or is still in flight when a run ends, uses up its token; a run that
  // empties the pool sends a spent one (refused: counted in the errors column) instead of stopping.
  let last = pool[0] ?? "";
  const refresh = (duration: number) =>
    run(`${label}: token (refresh_token grant)`, {
      url: `${t.url}${t.tokenPath}`,
      connections,
      duration,
      requests: [
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          setupRequest: (req) => {
            const token = pool.shift() ?? last;
            last = token;
            return {
              ...req,
              body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: t.clientId, client_secret: t.clientSecret }).toString(),
            };
          },
          onResponse: (status, body) => {
            if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
          },
        },
      ],
    });
  const userinfo = (duration: number) =>
    run(`${label}: userinfo`, {
      url: `${t.url}${t.userinfoPath}`,
      connections,
      duration,
      headers: { authorization: `Bearer ${t.accessToken}` },
    });
  // Userinfo first: oidc-provider's in-memory adapter is an LRU that a long
  // refresh run would make forget the grant behind the access token.
  await userinfo(1); // warm-up (first requests load and compile modules)
  const u = await userinfo(seconds);
  await refresh(1);
  return { refresh: await refresh(seconds), userinfo: u };
}

export async function oidcBench(serverUrl: string, env: Record<string, string>, seconds: number, connections: number): Promise<OidcResult> {
  const ours = await measureTarget("this server", await ourTarget(serverUrl, env), seconds, connections);
  const reference = await startReference();
  try {
    return { ours, reference: await measureTarget("oidc-provider", reference.target, seconds, connections) };
  } finally {
    reference.stop();
  }
}

export function printOidc(r: OidcResult) {
  console.log("endpoint".padEnd(46), "req/s".padStart(8), "p50 ms".padStart(8), "p99 ms".padStart(8), "errors".padStart(7));
  for (const row of [r.ours.refresh, r.reference.refresh, r.ours.userinfo, r.reference.userinfo]) {
    console.log(row.name.padEnd(46), row.rps.toFixed(0).padStart(8), row.p50.toFixed(1).padStart(8), row.p99.toFixed(1).padStart(8), String(row.errors).padStart(7));
  }
  const ratio = (a: OidcRow, b: OidcRow) => `${(a.rps / b.rps).toFixed(2)}x the req/s, p99 ${(a.p99 / b.p99).toFixed(2)}x`;
  console.log(`\nthis server vs oidc-provider: refresh ${ratio(r.ours.refresh, r.reference.refresh)}; userinfo ${ratio(r.ours.userinfo, r.reference.userinfo)}`);
  console.log("goal: at least as fast (ratio >= 1.00)");
}

/**
 * `npm run bench:oidc`: ROUNDS rounds (default 3) of this server and the
 * reference in turn, each against the same live tokens, so a side that slows
 * as its tokens pile up shows it; then this server again on a connection
 * with `synchronous_commit = off`: what waiting for the commit to reach the
 * disk (durability on PostgreSQL) costs each refresh.
 */
async function standalone() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
  const rounds = Number(process.env.ROUNDS ?? 3);
  const { spawnSync } = await import("node:child_process");
  const fs = await import("node:fs");
  if (!fs.existsSync(path.join(ROOT, ".next/BUILD_ID")) && spawnSync("npx", ["next", "build"], { cwd: ROOT, stdio: "inherit" }).status !== 0) process.exit(1);
  const { startServer } = await import("../tests/support/server");
  const { createBenchInstall } = await import("./database");
  const install = await createBenchInstall("oidc");
  const serverEnv = { ...install.env, RATE_LIMIT_PER_MINUTE: "100000000", WEBHOOK_WORKER: "off" };
  const server = await startServer(serverEnv);
  const reference = await startReference();
  try {
    const ours = await ourTarget(server.url, install.env);
    const table: OidcRow[] = [];
    for (let round = 1; round <= rounds; round++) {
      const o = await measureTarget(`this server, round ${round}`, ours, seconds, connections);
      const r = await measureTarget(`oidc-provider, round ${round}`, reference.target, seconds, connections);
      table.push(o.refresh, r.refresh, o.userinfo, r.userinfo);
      console.error(`[oidc] round ${round}: refresh ${(o.refresh.rps / r.refresh.rps).toFixed(2)}x, userinfo ${(o.userinfo.rps / r.userinfo.rps).toFixed(2)}x`);
    }
    await server.stop();
    const url = new URL(install.env.DATABASE_URL);
    url.searchParams.set("options", "-c synchronous_commit=off");
    // On the same port: the target (its URL, its live tokens) is the same.
    const relaxed = await startServer({ ...serverEnv, DATABASE_URL: url.toString() }, { port: server.port });
    try {
      const o = await measureTarget("this server, synchronous_commit=off", ours, seconds, connections);
      table.push(o.refresh, o.userinfo);
    } finally {
      await relaxed.stop();
    }
    console.log(`\nOpenID Connect, ${connections} connections, ${seconds} s a run: this server (PostgreSQL) and node-oidc-provider (in-memory adapter), one grant per refresh chain on both\n`);
    console.log("endpoint".padEnd(58), "req/s".padStart(8), "p50 ms".padStart(8), "p99 ms".padStart(8), "errors".padStart(7));
    for (const row of table) console.log(row.name.padEnd(58), row.rps.toFixed(0).padStart(8), row.p50.toFixed(1).padStart(8), row.p99.toFixed(1).padStart(8), String(row.errors).padStart(7));
  } finally {
    reference.stop();
    await server.stop().catch(() => {});
    await install.drop();
  }
}

if (process.argv.includes("--standalone")) {
  standalone().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}

if (process.argv.includes("--reference")) {
  referenceServer().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
