/**
 * The example's settings, read from the environment when first needed (never
 * at build time). See README.md for where each value comes from.
 */
export type Config = {
  /** The verification service's base URL; also its OpenID Connect issuer. */
  serviceUrl: URL;
  /** This app's own public URL (its OIDC callback is `${appUrl}/callback`). */
  appUrl: URL;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  workflowId: string;
  webhookSecret: string;
  /** Encrypts this app's cookies (at least 32 characters). */
  sessionSecret: string;
};

const REQUIRED = ["SVC_API_KEY", "SVC_CLIENT_ID", "SVC_CLIENT_SECRET", "SVC_WORKFLOW_ID", "SVC_WEBHOOK_SECRET", "SESSION_SECRET"] as const;

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  const missing = REQUIRED.filter((name) => !process.env[name]);
  if (missing.length > 0) throw new Error(`Set ${missing.join(", ")} (see examples/nextjs-integration/README.md)`);
  const sessionSecret = process.env.SESSION_SECRET!;
  if (sessionSecret.length < 32) throw new Error("SESSION_SECRET must be at least 32 characters");
  cached = {
    serviceUrl: new URL(process.env.SVC_URL ?? "http://localhost:3000"),
    appUrl: new URL(process.env.APP_URL ?? "http://localhost:8080"),
    apiKey: process.env.SVC_API_KEY!,
    clientId: process.env.SVC_CLIENT_ID!,
    clientSecret: process.env.SVC_CLIENT_SECRET!,
    workflowId: process.env.SVC_WORKFLOW_ID!,
    webhookSecret: process.env.SVC_WEBHOOK_SECRET!,
    sessionSecret,
  };
  return cached;
}

/** An absolute URL on this app, built from APP_URL (never from the request's Host header). */
export function appLink(path: string): URL {
  return new URL(path, config().appUrl);
}

/** http is accepted for a service or app on this machine only (as for OAuth loopback redirects, RFC 8252). */
export function isLoopback(url: URL): boolean {
  return ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}
