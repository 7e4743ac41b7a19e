import { z } from "zod";
import { db } from "@/lib/db/client";
import { parseOrThrow } from "@/lib/http/validation";
import { returnUrlProblem } from "./schemas";

/** At most this many origins may frame one app's hosted page. */
export const MAX_FRAME_ORIGINS = 10;

const DNS_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * A host a Content-Security-Policy source may name: a DNS name or an IPv4
 * address. CSP's host-source grammar has no IPv6 literal (browsers drop
 * such an entry), so `[::1]` is refused with its own message.
 */
function hostProblem(hostname: string): string | null {
  if (hostname.startsWith("[")) return "An IPv6 address cannot be named in a Content-Security-Policy: use a host name";
  return DNS_NAME.test(hostname) ? null : "Must be an origin such as https://shop.example";
}

/** Why `value` is not an origin an app of `environment` may register, or null. */
function frameOriginProblem(environment: "test" | "production", value: string): string | null {
  if (value.includes("*")) return "Wildcards are not allowed: list each origin";
  if (!URL.canParse(value)) return "Must be an origin such as https://shop.example";
  const url = new URL(value);
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Must be an origin such as https://shop.example";
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash) {
    return "Must be an origin only (scheme://host[:port]), without a path, query or fragment";
  }
  return hostProblem(url.hostname) ?? returnUrlProblem(environment, url);
}

/**
 * The origins whose pages may show an app's hosted page in a frame
 * (docs/hosted-flow.md "The hosted verification page"): each `scheme://host[:port]`, no
 * path, no wildcard; https, and for a test app also http on localhost (the
 * redirect-URI rule). Stored as their normalised origin, without repeats.
 */
export function frameOriginsSchema(environment: "test" | "production") {
  const origin = z
    .string()
    .trim()
    .max(300, "Must be at most 300 characters")
    .superRefine((value, ctx) => {
      const problem = frameOriginProblem(environment, value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .transform((value) => new URL(value).origin);
  return z
    .array(origin)
    .max(MAX_FRAME_ORIGINS, `At most ${MAX_FRAME_ORIGINS} origins`)
    .transform((origins) => [...new Set(origins)]);
}

/** The frame origins as given, checked for an app of `environment` (400 `invalid_request` naming each refused entry, `frame_origins.<n>`). */
export function parseFrameOrigins(environment: "test" | "production", value: unknown): string[] {
  return parseOrThrow(frameOriginsSchema(environment), value, "frame_origins");
}

/** Replaces the app's frame origins with ones parseFrameOrigins accepted. */
export async function setFrameOrigins(appId: string, frameOrigins: string[]) {
  const prisma = await db();
  return prisma.app.update({ where: { id: appId }, data: { frameOrigins } });
}
