import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, shared, type Tenant } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { signUpDeveloper } from "../support/portal";
import { freePort } from "../support/server";
import { portalTestApp, registerApprovedWebhook } from "../support/webhook-tenants";

/**
 * The SDK as a developer gets it (issue 33, item 23): a tarball. Once per
 * run, sdk/ is copied out of the repository into a temporary directory (as a
 * fresh clone's sdk/ stands on its own: no workspace root above it), installed
 * there from its own lockfile (`npm ci`), and packed (`npm pack`: its
 * `prepack` builds dist/). The tarball is installed into a scratch project in
 * os.tmpdir(), nowhere near the repository's node_modules, and that project's
 * scripts (plain .mjs run by node, cwd = the scratch project) create a
 * session for a production app on the real server and receive a real webhook
 * delivery from it, verified with the package's verifyWebhook. Its shipped
 * types are checked by compiling a consumer with the scratch project's own
 * TypeScript, without @types/node.
 */
useServerDatabase();

const repoSdk = path.join(process.cwd(), "sdk");
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
});

/** The environment of a child: without the npm_* variables of the `npm test` running this file, nor a NODE_PATH into the repository. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== "NODE_PATH" && key !== "NODE_OPTIONS") env[key] = value;
  }
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}

function run(command: string, args: string[], cwd: string, extra: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd, env: childEnv(extra), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  expect(result.status, `${command} ${args.join(" ")} in ${cwd}:\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** Runs `script` (written into the scratch project) with node; its last stdout line is JSON. */
function runScript(scratch: string, name: string, script: string, env: Record<string, string>) {
  fs.writeFileSync(path.join(scratch, name), script);
  const out = run(process.execPath, [name], scratch, env).trim().split("\n");
  return JSON.parse(out[out.length - 1]!);
}

/** A long-running node script of the scratch project whose stdout lines are JSON records. */
function startScript(scratch: string, name: string, script: string, env: Record<string, string>) {
  fs.writeFileSync(path.join(scratch, name), script);
  const child: ChildProcess = spawn(process.execPath, [name], { cwd: scratch, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  const records: any[] = [];
  let stderr = "";
  let pending = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) records.push(JSON.parse(line));
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  cleanups.push(() => child.kill());
  return {
    records,
    async waitFor<T>(find: (records: any[]) => T | undefined, ms = 20_000): Promise<T> {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = find(records);
        if (found !== undefined) return found;
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`${name}: condition not met (exit ${child.exitCode}); records ${JSON.stringify(records)}; stderr ${stderr}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

let work: string;
let scratch: string;
let packed: { filename: string; files: Array<{ path: string }> };
let typecheck: Promise<{ status: number | null; output: string }>;

const CONSUMER_TS = `import { createVerificationClient, verifyWebhook, type VerifiedEvent } from "@svc-identity/sdk";

const svc = createVerificationClient({ baseUrl: "https://verify.example.com", apiKey: "key" });

export async function start(workflowId: string): Promise<string> {
  const { data, error } = await svc.POST("/api/v2/session", { body: { workflow_id: workflowId, vendor_data: "user-42" } });
  if (error) throw new Error(error.error.code);
  return data.data.url;
}

export async function wrongBody() {
  // @ts-expect-error the generated types know the body: an unknown field and no workflow_id do not compile
  await svc.POST("/api/v2/session", { body: { workflow: 1 } });
}

export function receive(rawBody: string, headers: Headers): VerifiedEvent["event_id"] {
  return verifyWebhook(rawBody, headers, "secret").event_id;
}
`;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "svc-sdk-package-"));
  cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));
  // The package's sources as a fresh clone has them (no build output, no installed modules).
  const source = path.join(work, "sdk");
  fs.cpSync(repoSdk, source, { recursive: true, filter: (from) => !/[\\/](node_modules|dist)$/.test(from) });
  run("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], source);
  packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], source))[0];

  scratch = path.join(work, "scratch");
  fs.mkdirSync(scratch);
  fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", path.join(work, packed.filename), "typescript@5.9.3"], scratch);

  // The consumer's compile runs while the server tests below do.
  fs.writeFileSync(path.join(scratch, "consumer.ts"), CONSUMER_TS);
  fs.writeFileSync(
    path.join(scratch, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", lib: ["ES2022", "DOM"], module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: [] },
      files: ["consumer.ts"],
    }),
  );
  typecheck = new Promise((resolve) => {
    const tsc = spawn(process.execPath, [path.join(scratch, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: scratch, env: childEnv() });
    let output = "";
    tsc.stdout.on("data", (c) => (output += c));
    tsc.stderr.on("data", (c) => (output += c));
    tsc.on("close", (status) => resolve({ status, output }));
  });
}, 300_000);

describe("the SDK package", () => {
  it("npm pack ships the built package: dist with its types, the README and the OpenAPI document; no sources", () => {
    expect(packed.filename).toBe("svc-identity-sdk-0.1.0.tgz");
    const files = packed.files.map((f) => f.path).sort();
    for (const file of ["package.json", "README.md", "openapi.json", "dist/index.js", "dist/index.d.ts", "dist/client.js", "dist/webhooks.js", "dist/schema.d.ts"]) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => !f.startsWith("dist/") && !["package.json", "README.md", "openapi.json"].includes(f))).toEqual([]);
  });

  it("installed from the tarball outside the repository, it creates a session for a production app and reports an error by its code", async () => {
    const tenant: Tenant = await createTenant(undefined, "production");
    const result = runScript(
      scratch,
      "session.mjs",
      `import { randomUUID } from "node:crypto";
import { createVerificationClient } from "@svc-identity/sdk";

const svc = createVerificationClient({ baseUrl: process.env.SVC_URL, apiKey: process.env.SVC_API_KEY });
const workflow = await svc.POST("/api/v2/workflows", { body: { name: "Scratch KYC", features: ["location"] } });
const session = await svc.POST("/api/v2/session", { body: { workflow_id: workflow.data.data.workflow.id, vendor_data: "scratch-user" } });
const unknown = await svc.POST("/api/v2/session", { body: { workflow_id: randomUUID(), vendor_data: "scratch-user" } });
console.log(JSON.stringify({
  resolved: import.meta.resolve("@svc-identity/sdk"),
  session: { status: session.response.status, id: session.data.data.session_id, url: session.data.data.url },
  unknown: { status: unknown.response.status, code: unknown.error?.error.code },
}));
`,
      { SVC_URL: shared().url, SVC_API_KEY: tenant.apiKey },
    );
    // The package the script ran is the scratch project's copy.
    expect(result.resolved).toBe(`file://${fs.realpathSync(scratch)}/node_modules/@svc-identity/sdk/dist/index.js`);
    expect(result.session.status).toBe(201);
    expect(result.session.url).toMatch(/^https?:\/\//);
    expect(result.unknown).toEqual({ status: 404, code: "workflow_not_found" });
    // The server has the session, in the production app, as created.
    const read = await api("GET", `/api/v2/session/${result.session.id}/decision`, { headers: { "X-API-Key": tenant.apiKey } });
    expect(read.status).toBe(200);
    expect(read.body.data.status).toBe("NOT_STARTED");
  });

  it("its verifyWebhook accepts a real delivery from the server, processes a duplicate once, and refuses a bad signature", async () => {
    const developer = await signUpDeveloper();
    const appId = await portalTestApp(developer, "SDK package hooks");
    const port = await freePort();
    const { webhookId, secret } = await registerApprovedWebhook(developer, appId, `http://127.0.0.1:${port}/svc-webhook`);
    const key = await developer.call("POST", `/api/portal/apps/${appId}/keys`, { json: { name: "scratch" } });
    expect(key.status).toBe(201);
    const receiver = startScript(
      scratch,
      "receiver.mjs",
      `import http from "node:http";
import { MemoryDedupStore, verifyWebhook } from "@svc-identity/sdk";

const store = new MemoryDedupStore();
const log = (record) => console.log(JSON.stringify(record));
http.createServer(async (req, res) => {
  let rawBody = "";
  req.setEncoding("utf8");
  for await (const chunk of req) rawBody += chunk;
  let event;
  try {
    event = verifyWebhook(rawBody, req.headers, process.env.SVC_WEBHOOK_SECRET);
  } catch (err) {
    log({ status: 400, error: err.message });
    return res.writeHead(400).end("invalid signature");
  }
  const first = await store.claim(event.event_id);
  log({ status: 200, event_id: event.event_id, type: event.type, first });
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ received: true }));
}).listen(Number(process.env.PORT), "127.0.0.1", () => log({ listening: true }));
`,
      { PORT: String(port), SVC_WEBHOOK_SECRET: secret },
    );
    await receiver.waitFor((records) => records.find((r) => r.listening));
    const sendTest = async (kind: string) => {
      const sent = await api("POST", `/api/v2/webhooks/${webhookId}/test`, { headers: { "X-API-Key": key.body.data.api_key }, json: { kind } });
      expect(sent.status).toBe(202);
      return sent.body.data.event_id as string;
    };

    const approved = await sendTest("approved");
    const received = await receiver.waitFor((records) => records.find((r) => r.event_id === approved));
    expect(received).toMatchObject({ status: 200, first: true });

    const duplicate = await sendTest("duplicate");
    const both = await receiver.waitFor((records) => {
      const seen = records.filter((r) => r.event_id === duplicate);
      return seen.length === 2 ? seen : undefined;
    });
    expect(both.map((r) => r.first)).toEqual([true, false]);

    await sendTest("bad_signature");
    const refused = await receiver.waitFor((records) => records.find((r) => r.status === 400));
    expect(refused.error).toBe("invalid signature");
  });

  it("its shipped types compile a consumer (typed bodies and answers) with no @types/node", async () => {
    const { status, output } = await typecheck;
    expect(output).toBe("");
    expect(status).toBe(0);
  });
});
