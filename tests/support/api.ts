import http from "node:http";
import { inject } from "vitest";
import { cli } from "./cli";
import { assertMatchesContract } from "./contract";
import { processSlot, resetProcessSlots } from "@/lib/process-slots";

export function shared() {
  return inject("server");
}

export type ApiResponse = { status: number; headers: Headers; body: any; text: string };

/**
 * A request to the shared server (or `base`), body as JSON when given as an
 * object. A response of a documented operation must match the OpenAPI
 * document (support/contract.ts), or the call throws. Redirects are followed
 * unless `redirect: "manual"` (then the 303 of authorize or logout is the
 * answer checked).
 */
export async function api(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; json?: unknown; raw?: string; form?: FormData; base?: string; redirect?: RequestRedirect } = {},
): Promise<ApiResponse> {
  const base = options.base ?? shared().url;
  const headers: Record<string, string> = { ...options.headers };
  let body: string | FormData | undefined;
  if (options.form !== undefined) {
    body = options.form;
  } else if (options.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(options.json);
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, redirect: options.redirect });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const response = { status: res.status, headers: res.headers, body: parsed, text };
  assertMatchesContract(method, `${base}${path}`, response);
  return response;
}

export type Tenant = {
  developerId: string;
  organizationId: string;
  appId: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
};

let counter = 0;

/**
 * A developer, organization and app. On the shared server's database they are
 * made in this process by the functions the admin CLI runs
 * (`developer:create`, `app:create`: createDeveloper, createApp): a CLI
 * process costs seconds a call and the suite makes dozens of tenants (the
 * CLI itself is tested in cli.test.ts). Another server's database (its own
 * `env`): through the CLI.
 */
export async function createTenant(env = shared().env, environment: "test" | "production" = "test"): Promise<Tenant> {
  const email = `dev${Date.now()}${counter++}${Math.random().toString(36).slice(2, 6)}@example.com`;
  const sharedEnv = shared().env;
  if (env.DATABASE_URL !== sharedEnv.DATABASE_URL || env.DATA_DIR !== sharedEnv.DATA_DIR) return createTenantWithCli(env, environment, email);
  const { dev, app } = await inSharedDatabase(async () => {
    const { createDeveloper } = await import("@/lib/tenancy/create-developer");
    const { createApp } = await import("@/lib/tenancy/create-app");
    const dev = await createDeveloper({ email, password: "correct-horse-battery", emailVerified: true });
    return { dev, app: await createApp({ organizationId: dev.organizationId, name: "Test app", environment }) };
  });
  return {
    developerId: dev.developerId,
    organizationId: dev.organizationId,
    appId: app.appId,
    apiKey: app.apiKey,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
  };
}

async function createTenantWithCli(env: Record<string, string>, environment: "test" | "production", email: string): Promise<Tenant> {
  const dev = await cli(["developer:create", "--email", email, "--password", "correct-horse-battery"], env);
  const app = await cli(["app:create", "--org", dev.organization_id, "--name", "Test app", "--env", environment], env);
  return {
    developerId: dev.developer_id,
    organizationId: dev.organization_id,
    appId: app.app_id,
    apiKey: app.api_key,
    clientId: app.client_id,
    clientSecret: app.client_secret,
  };
}

/**
 * Points this process's domain layer (lib/) at a server's database: its
 * DATABASE_URL or embedded DATA_DIR (this process then connects to the
 * server's embedded host) and its ENCRYPTION_KEY. The same settings as
 * useServerDatabase (tests/support/domain.ts), which also disconnects after
 * the file.
 */
/**
 * Runs domain functions in this process on the shared server's database (the
 * functions the admin CLI runs; a CLI process costs seconds a call).
 * lib/config/env.ts reads the process's configuration once, at first use: a
 * call made early must not fix it before the test file sets its own
 * (PUBLIC_BASE_URL, Stripe keys), so what this call made it read is forgotten.
 */
export async function inSharedDatabase<T>(work: () => Promise<T>): Promise<T> {
  useDatabaseOf(shared().env);
  const readBefore = processSlot("env").value !== undefined;
  try {
    return await work();
  } finally {
    if (!readBefore) resetProcessSlots("env");
  }
}

export function useDatabaseOf(env: Record<string, string>) {
  for (const key of ["DATABASE_URL", "DATA_DIR", "ENCRYPTION_KEY"]) {
    if (env[key] !== undefined) process.env[key] = env[key];
    else delete process.env[key];
  }
}

export function keyHeader(tenant: Pick<Tenant, "apiKey">) {
  return { "X-API-Key": tenant.apiKey };
}

/** Creates a workflow over the API; returns its id. */
export async function createWorkflow(
  t: Pick<Tenant, "apiKey">,
  features: string[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await api("POST", "/api/v2/workflows", {
    headers: keyHeader(t),
    json: { name: `wf-${features.join("+")}`, features, ...extra },
  });
  if (res.status !== 201) throw new Error(`workflow create failed: ${res.status} ${res.text}`);
  return res.body.data.workflow.id;
}

/** POST /api/v2/session. */
export function postSession(t: Pick<Tenant, "apiKey">, body: Record<string, unknown>, headers: Record<string, string> = {}, base?: string) {
  return api("POST", "/api/v2/session", { headers: { ...keyHeader(t), ...headers }, json: body, base });
}

/** Creates a session that must succeed; returns its create response data. */
export async function createSession(t: Pick<Tenant, "apiKey">, body: Record<string, unknown>) {
  const res = await postSession(t, body);
  if (res.status !== 201) throw new Error(`session create failed: ${res.status} ${res.text}`);
  return res.body.data as { session_id: string; status: string; url: string; session_token: string; features: string[]; expires_at: string };
}

/**
 * A request through node:http, for what fetch refuses to send (TRACE,
 * CONNECT, any method name) and with the body sent as given.
 */
export function rawRequest(
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: options.headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          for (const one of [v ?? []].flat()) headers.append(k, one);
        }
        resolve({ status: res.statusCode ?? 0, headers, text });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The Authorization header of a session token (the hosted flow's calls). */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The check of one type in a hosted-flow response's `checks`. */
export const checkOf = (res: { body: any }, type: string) => res.body.data.checks.find((c: { type: string }) => c.type === type);
