import type { App } from "@/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";
import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import { authenticateClientCredentials } from "@/lib/http/auth";
import { clientIp } from "@/lib/http/client-ip";
import { startBudgetedAttempt, type FailureBudget } from "@/lib/http/rate-limit";
import type { OidcRequest } from "./http";
import type { ClientAuthParams } from "./schemas";

/**
 * Client authentication at the token endpoint (spec 4.5, RFC 6749 2.3.1):
 * `client_secret_basic` (HTTP Basic, id and secret form-encoded) or
 * `client_secret_post` (`client_id` and `client_secret` in the body), never
 * both. The secret check itself is the organization API's
 * (lib/http/auth.ts): same hashing, constant-time comparison, inactive apps
 * refused, the previous secret accepted during a rotation's overlap window
 * (matchClientSecret), and the same credential cache (CREDENTIAL_CACHE_MS).
 *
 * Failed authentications are limited (ABUSE_LIMITS.tokenClientAuth) per
 * (client_id, client IP) and per client IP: over either, 429 `rate_limited`
 * before the secret is checked, until the window ends. A success clears the
 * (client_id, IP) count.
 */
const LIMIT = ABUSE_LIMITS.tokenClientAuth;
const BUDGET: FailureBudget = {
  ipBucket: "oidc-client-auth-ip",
  accountBucket: "oidc-client-auth-client",
  failuresPerAccountPerIp: LIMIT.failuresPerClientPerIp,
  failuresPerIp: LIMIT.failuresPerIp,
  windowSeconds: LIMIT.windowSeconds,
  // A relying party's backend sends concurrent token requests from one address; its secret cannot be guessed.
  reserveBeforeCheck: false,
};

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, " "));
}

function readBasic(req: Pick<OidcRequest, "headers">): { id: string; secret: string } | null {
  const header = req.headers.get("authorization")?.trim();
  if (!header || !/^basic /i.test(header)) return null;
  try {
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new Error("no colon");
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new ApiError("invalid_client", {
      message: "Malformed HTTP Basic credentials",
      headers: { "WWW-Authenticate": 'Basic realm="token", charset="UTF-8"' },
    });
  }
}

export async function authenticateTokenClient(req: Pick<OidcRequest, "headers">, params: ClientAuthParams): Promise<App> {
  const basic = readBasic(req);
  const bodyId = params.client_id;
  const bodySecret = params.client_secret;
  if (basic && bodySecret !== undefined) {
    throw new ApiError("invalid_request", { message: "Use one client authentication method: HTTP Basic or client_secret in the body" });
  }
  if (basic && bodyId !== undefined && bodyId !== basic.id) {
    throw new ApiError("invalid_request", { message: "client_id in the body differs from the HTTP Basic client" });
  }
  const clientId = basic?.id ?? bodyId;
  const secret = basic?.secret ?? bodySecret;
  const challenge = basic ? { "WWW-Authenticate": 'Basic realm="token", charset="UTF-8"' } : undefined;
  const ip = clientIp(req);
  const attempt = await startBudgetedAttempt(BUDGET, ip, clientId);
  if (!clientId || !secret) {
    await attempt.failed();
    throw new ApiError("invalid_client", {
      message: "Client authentication required: HTTP Basic, or client_id and client_secret in the body",
      headers: challenge,
    });
  }
  try {
    const { app } = await authenticateClientCredentials(clientId, secret);
    await attempt.succeeded();
    return app;
  } catch (err) {
    if (err instanceof ApiError && err.code === "invalid_client") {
      await attempt.failed();
      throw new ApiError("invalid_client", { message: err.message, headers: challenge });
    }
    throw err;
  }
}
