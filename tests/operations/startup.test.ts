import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { portalCaller, signInOverHttp } from "../support/portal";
import { api } from "../support/api";
import { baseEnv, freePort, ROOT, startServer } from "../support/server";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-startup-"));
  dirs.push(dir);
  return dir;
}

describe("npm run dev (README)", () => {
  it("serves the app on the embedded database and prints the demo credentials", async () => {
    let licenceWorkflow = "";
    const dataDir = tempDir();
    const devEnv = { DATA_DIR: dataDir, SVC_NEXT_DIST_DIR: ".next-test-dev" };
    const server = await startServer(devEnv, { dev: true });
    try {
      const output = server.output();
      expect(output).toContain("Demo account (development only)");
      const apiKey = output.match(/API key:\s+(sk_test_\S+)/)?.[1];
      expect(apiKey).toBeDefined();
      const res = await api("GET", "/api/v2/workflows", { headers: { "X-API-Key": apiKey! }, base: server.url });
      expect(res.status).toBe(200);
      const saved = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8"));
      expect(saved.api_key).toBe(apiKey);
      // The developer portal's address is printed with the demo account, which signs in there.
      expect(output).toMatch(new RegExp(`portal:\\s+${server.url.replace(/[.]/g, "\\.")}/sign-in`));
      const session = await signInOverHttp(saved.email, saved.password, server.url);
      expect(session.signedIn).toBe(true);
      // Development allows webhooks to this machine (the address guard refuses loopback elsewhere),
      // says so, and the demo's test app registers a local receiver.
      expect(output).toContain("WEBHOOK_ALLOWED_NETWORKS=127.0.0.1/32,::1/128");
      const portal = portalCaller(session.cookie, server.url);
      const [demoApp] = (await portal("GET", "/api/portal/apps?environment=test")).body.data.apps as { id: string }[];
      const hook = await portal("POST", `/api/portal/apps/${demoApp!.id}/webhooks`, { json: { url: "http://127.0.0.1:4000/hook" } });
      expect(hook.status, hook.text).toBe(201);
      // The NPPES registry is configured by default: a licence workflow can be made.
      const licence = await api("POST", "/api/v2/workflows", { headers: { "X-API-Key": apiKey! }, base: server.url, json: { name: "licence", features: ["credential"] } });
      expect(licence.status).toBe(201);
      licenceWorkflow = licence.body.data.workflow.id;
    } finally {
      await server.stop();
    }
    // Second start: the data is still there, and it says where the credentials are.
    // Without any licence registry (NPPES off, none imported) the credential check cannot run (spec 1.6):
    // no workflow takes it on, and the stored one starts no session and charges nothing.
    const again = await startServer({ ...devEnv, NPPES_BASE_URL: "off" }, { dev: true });
    try {
      expect(again.output()).toContain(`Demo credentials: ${path.join(dataDir, "demo-credentials.json")}`);
      expect(again.output()).not.toContain("applied migration");
      const key = { "X-API-Key": JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8")).api_key };
      const refused = await api("POST", "/api/v2/workflows", { headers: key, base: again.url, json: { name: "licence", features: ["liveness", "credential"] } });
      expect(refused.status).toBe(400);
      expect(refused.body.data.errors).toEqual({ "features.1": [expect.stringMatching(/needs a licence registry/)] });
      const session = await api("POST", "/api/v2/session", { headers: key, base: again.url, json: { workflow_id: licenceWorkflow } });
      expect(session.status).toBe(422);
      expect(session.body).toMatchObject({ success: false, data: { features: ["credential"] }, error: { code: "invalid_request" } });
      const sessions = await api("GET", "/api/v2/session", { headers: key, base: again.url });
      expect(sessions.body.data.sessions).toEqual([]);
    } finally {
      await again.stop();
    }
  }, 180_000); // two cold `next dev` starts: over a minute on a loaded 2-core machine (a timed-out start left its dev server running)
});

/** Starts the production server with `env` and expects it to refuse: resolves with its exit code and output. */
async function refusedStart(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd: ROOT,
    env: baseEnv({ NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: tempDir(), ...env }),
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { code, output };
}

describe("production start", () => {
  it("exits with 1, naming the address, when its port is taken (a supervisor sees it; no process left serving nothing)", async () => {
    const taken = net.createServer();
    const port = await new Promise<number>((resolve) => taken.listen(0, "127.0.0.1", () => resolve((taken.address() as net.AddressInfo).port)));
    try {
      const { code, output } = await refusedStart({ ENCRYPTION_KEY: "ab".repeat(32), PORT: String(port) });
      expect(code).toBe(1);
      expect(output).toContain(`cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
    } finally {
      taken.close();
    }
  });

  it("refuses to start without ENCRYPTION_KEY", async () => {
    const { code, output } = await refusedStart({ ENCRYPTION_KEY: "" });
    expect(code).not.toBe(0);
    expect(output).toContain("ENCRYPTION_KEY is required in production");
  });

  it("refuses to start with an ENCRYPTION_KEY_PREVIOUS it cannot use, naming it (a rotation would leave old data unreadable)", async () => {
    const key = "ab".repeat(32);
    for (const previous of ["not-a-key", `${"cd".repeat(32)},short`, key]) {
      const { code, output } = await refusedStart({ ENCRYPTION_KEY: key, ENCRYPTION_KEY_PREVIOUS: previous });
      expect(code, previous).not.toBe(0);
      expect(output).toMatch(/Invalid configuration:[\s\S]*ENCRYPTION_KEY_PREVIOUS: (1 of its keys is not 32 bytes|repeats ENCRYPTION_KEY)/);
    }
  });

  it("refuses to start with a CHECK_PRICES it cannot use, naming it (instead of failing every session create)", async () => {
    const key = "ab".repeat(32);
    for (const prices of ['{"lively":0.2}', '{"liveness":"cheap"}', "liveness=0.2"]) {
      const { code, output } = await refusedStart({ ENCRYPTION_KEY: key, CHECK_PRICES: prices });
      expect(code, prices).not.toBe(0);
      expect(output).toMatch(/Invalid configuration:[\s\S]*CHECK_PRICES/);
    }
  });
});
