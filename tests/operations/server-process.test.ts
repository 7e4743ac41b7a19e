import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTenant, keyHeader, postSession, type Tenant } from "../support/api";
import { createTestDatabase, sql, type TestDatabase } from "../support/database";
import { fixture, imageForm } from "../support/images";
import { licence, personA, postBurst, postDocument } from "../support/kyc";
import { underScreenLight } from "../support/screen-light";
import { baseEnv, freePort, ROOT, startServer, watchProcess, type RunningServer } from "../support/server";

/**
 * The server process itself (issue 33, items 1-3), on production servers of
 * their own (`node server.mjs`, NODE_ENV=production, the production app):
 * a damaged image is the sender's mistake, not the engine's; PORT and HOST
 * come from .env as every other setting does; SIGTERM drains.
 */
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
});

/** A JPEG cut at half its length: its header (and so its size) is intact, its pixels are not. */
const cutInHalf = (jpeg: Buffer) => jpeg.subarray(0, jpeg.length >> 1);
const MODELS_LOADED = /"message":"vision worker: face models loaded"/g;

/** Waits (without a fixed sleep) until `ready()` holds, polling every 100 ms up to `ms`. */
async function until(what: string, ready: () => boolean, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let database: TestDatabase;
let env: Record<string, string>;
let server: RunningServer;
let tenant: Tenant;

beforeAll(async () => {
  database = await createTestDatabase("server-process");
  cleanups.push(() => database.drop());
  env = { ...database.env, ENCRYPTION_KEY: randomBytes(32).toString("hex") };
  // One vision thread, models loaded at start-up as in production: each load is logged by the worker.
  server = await startServer({ ...env, VISION_PRELOAD: "on", VISION_THREADS: "1" }, { logFile: path.join(os.tmpdir(), "svc-server-process.log") });
  cleanups.push(() => server.stop());
  tenant = await createTenant(env, "production");
  await until("the vision models to load", () => (server.output().match(MODELS_LOADED) ?? []).length === 1);
}, 300_000);

async function charges(organizationId: string) {
  return sql(
    env,
    `SELECT l.reference FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.organization_id = $1 AND l.kind = 'check_charge'`,
    [organizationId],
  );
}

describe("a damaged image (issue 33.1)", () => {
  it("a JPEG cut in half is 422 invalid_image naming the field, is not billed, and the models stay loaded for the next request", { timeout: 240_000 }, async () => {
    const base = server.url;
    // Liveness asks for the turns person A's fixture bursts perform.
    const settings = { liveness: { actions: ["turn_left", "turn_right"], actions_per_challenge: 2 } };
    const workflow = await api("POST", "/api/v2/workflows", { base, headers: keyHeader(tenant), json: { name: "kyc", features: ["id_verification", "liveness"], settings } });
    expect(workflow.status, workflow.text).toBe(201);
    const session = await postSession(tenant, { workflow_id: workflow.body.data.workflow.id }, {}, base);
    expect(session.status, session.text).toBe(201);
    const token = session.body.data.session_token as string;
    const { front, back } = licence("a");

    // The document step: the front cut short.
    const doc = await postDocument(token, "driving_licence", { front: cutInHalf(front), back }, base);
    expect(doc.status, doc.text).toBe(422);
    expect(doc.body).toMatchObject({ success: false, error: { code: "invalid_image" }, data: { field: "front" } });

    // The liveness burst: its third frame cut short.
    const challenge = await api("POST", "/api/v2/antispoof/challenge", { base, headers: bearer(token) });
    expect(challenge.status).toBe(201);
    const { challenge_id, actions, colours } = challenge.body.data as { challenge_id: string; actions: string[]; colours: string[] };
    const frames = await underScreenLight(personA(actions), colours);
    frames[2] = cutInHalf(frames[2]!);
    const burst = await api("POST", "/api/v2/antispoof", { base, headers: bearer(token), form: imageForm({ frames }, { challenge_id }) });
    expect(burst.status, burst.text).toBe(422);
    expect(burst.body).toMatchObject({ success: false, error: { code: "invalid_image" }, data: { field: "frames[2]" } });

    // The selfie of a face-uniqueness workflow.
    const selfieWorkflow = await api("POST", "/api/v2/workflows", { base, headers: keyHeader(tenant), json: { name: "unique", features: ["face_uniqueness"] } });
    expect(selfieWorkflow.status, selfieWorkflow.text).toBe(201);
    const selfieSession = await postSession(tenant, { workflow_id: selfieWorkflow.body.data.workflow.id }, {}, base);
    const selfie = await api("POST", "/api/v2/face-uniqueness", {
      base,
      headers: bearer(selfieSession.body.data.session_token),
      form: imageForm({ image: cutInHalf(fixture("faces", "a-still", "1.jpg")) }),
    });
    expect(selfie.status, selfie.text).toBe(422);
    expect(selfie.body).toMatchObject({ error: { code: "invalid_image" }, data: { field: "image" } });

    // Nothing was recorded or charged.
    expect(await charges(tenant.organizationId)).toEqual([]);
    const flow = await api("GET", "/api/v2/flow", { base, headers: bearer(token) });
    expect(flow.body.data.steps.every((s: { status: string }) => s.status === "pending"), flow.text).toBe(true);

    // The same person's whole images now go through, on the models loaded at start-up.
    const retakenDocument = await postDocument(token, "driving_licence", { front, back }, base);
    expect(retakenDocument.status, retakenDocument.text).toBe(200);
    const retakenBurst = await postBurst(token, "as_asked", personA, base);
    expect(retakenBurst.status, retakenBurst.text).toBe(200);
    expect(retakenBurst.body.data.checks.find((c: { type: string }) => c.type === "liveness")).toMatchObject({ status: "passed" });
    expect(server.output().match(MODELS_LOADED)).toHaveLength(1);
    expect(server.output()).not.toContain("_unavailable");
  });
});

/** A copy of the install in a directory of its own (every entry a link to this checkout's), with its own .env. */
function installWithDotEnv(dotEnv: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-dotenv-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const entry of fs.readdirSync(ROOT)) {
    if (entry.startsWith(".env") || entry === ".git") continue;
    fs.symlinkSync(path.join(ROOT, entry), path.join(dir, entry));
  }
  fs.writeFileSync(path.join(dir, ".env"), dotEnv);
  return dir;
}

describe("PORT and HOST from .env (issue 33.2)", () => {
  it("the server listens on the .env's PORT and HOST, and PUBLIC_BASE_URL's default names that port", { timeout: 240_000 }, async () => {
    const port = await freePort();
    const dir = installWithDotEnv(`# as .env.example\nPORT=${port}\nHOST=127.0.0.1\n`);
    const db = await createTestDatabase("dotenv");
    cleanups.push(() => db.drop());
    const childEnv = baseEnv({ ...db.env, NODE_ENV: "production", ENCRYPTION_KEY: randomBytes(32).toString("hex"), VISION_PRELOAD: "off", JOB_WORKER: "off" });
    delete childEnv.HOST;
    expect(childEnv.PORT).toBeUndefined();
    const child: ChildProcess = spawn(process.execPath, ["server.mjs"], { cwd: dir, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    const watched = watchProcess(child, "server with .env");
    cleanups.push(() => watched.stop());
    await watched.waitUntilUp(`http://127.0.0.1:${port}/api/health`, [200], 120_000);
    expect(watched.output()).toContain(`> Ready on http://127.0.0.1:${port} (production)`);
    const discovery = await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(`http://localhost:${port}`);
    await watched.stop();
  });
});

/**
 * A POST whose body is sent in two halves: resolves `started` once the
 * server has taken the request (its 100 Continue), `finish()` sends the
 * rest, `answer` is the response.
 */
function slowUpload(url: string, headers: Record<string, string>, body: string) {
  const half = body.length >> 1;
  let started!: () => void;
  const startedP = new Promise<void>((resolve) => (started = resolve));
  const req = http.request(url, { method: "POST", headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), expect: "100-continue" } });
  const answer = new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
    });
    req.on("error", reject);
  });
  req.on("continue", () => {
    req.write(body.slice(0, half));
    started();
  });
  req.flushHeaders();
  return { started: startedP, answer, finish: () => req.end(body.slice(half)) };
}

describe("SIGTERM (issue 33.3)", () => {
  it("drains: an upload in flight is answered with its normal status, new connections are refused, the process exits 0", { timeout: 120_000 }, async () => {
    const body = JSON.stringify({ name: "sent slowly", features: ["location"] });
    const upload = slowUpload(`${server.url}/api/v2/workflows`, keyHeader(tenant), body);
    await upload.started;
    server.signal("SIGTERM");
    await until("the drain to start", () => server.output().includes("> SIGTERM: draining 1 request(s) in flight"));
    // The listener is closed: a new connection is refused.
    await expect(fetch(`${server.url}/api/health/live`)).rejects.toThrow();
    upload.finish();
    const answer = await upload.answer;
    expect(answer.status, answer.text).toBe(201);
    expect(JSON.parse(answer.text).data.workflow).toMatchObject({ name: "sent slowly" });
    expect(answer.connection).toBe("close");
    expect(await server.exited).toBe(0);
  });
});
