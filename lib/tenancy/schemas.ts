import { z } from "zod";
import { isAllowedDestination, isIpLiteral, type IpNetwork } from "@/lib/net/safe-address";

export const EmailSchema = z.string().trim().toLowerCase().pipe(z.email({ message: "Invalid email address" }));
/** Domains whose mailboxes ignore dots in the local part; googlemail.com is gmail.com. */
const DOTLESS_MAILBOX_DOMAINS: Record<string, string> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" };

/**
 * The mailbox an email address delivers to, for "once per mailbox" rules
 * (the welcome credit): lower-cased; a `+tag` is removed from the local
 * part (sub-addressing, on every domain); for gmail.com and googlemail.com
 * the dots of the local part are removed too, and the domain is gmail.com.
 * `A.B+shop@GoogleMail.com` -> `ab@gmail.com`. Not a valid address to mail.
 */
export function normalisedMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 0) return address;
  const domain = address.slice(at + 1);
  let local = address.slice(0, at);
  const plus = local.indexOf("+");
  if (plus >= 0) local = local.slice(0, plus);
  const dotless = DOTLESS_MAILBOX_DOMAINS[domain];
  return dotless ? `${local.replaceAll(".", "")}@${dotless}` : `${local}@${domain}`;
}

export const PasswordSchema = z.string().min(10, "Password must be at least 10 characters").max(200);
export const AppEnvironmentSchema = z.enum(["test", "production"]);
export const AppNameSchema = z.string().trim().min(1, "Name is required").max(120, "Name must be 1 to 120 characters");

import { KNOWN_SCOPES } from "./scopes";

export { KNOWN_SCOPES };
export const ScopesSchema = z
  .array(z.enum(KNOWN_SCOPES, { message: `Unknown scope; known: ${KNOWN_SCOPES.join(", ")}` }))
  .refine((s) => s.includes("openid"), "Scopes must include openid")
  .transform((s) => [...new Set(s)]);

function isLoopbackHost(host: string) {
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

/** `http://` on localhost: allowed for development redirect URIs and test apps' webhooks. */
export function isLocalHttpUrl(url: URL): boolean {
  return url.protocol === "http:" && isLoopbackHost(url.hostname);
}

/**
 * Where a person is sent back after a hosted session or an account recovery
 * (`redirect_url`, `redirectUrl`): https; a test app may also use http on
 * localhost. Null when allowed, else why not.
 */
export function returnUrlProblem(environment: "test" | "production", url: URL): string | null {
  if (url.protocol === "https:" || (environment === "test" && isLocalHttpUrl(url))) return null;
  return environment === "test" ? "Must use https (http only for localhost in test apps)" : "Must use https for production apps";
}

/**
 * Spec 5 rule 8: redirect URIs are registered exactly; HTTPS, except a local
 * callback on localhost for development. No fragments, no wildcards.
 */
export const RedirectUriSchema = z
  .string()
  .trim()
  .pipe(z.url({ message: "Redirect URI must be an absolute URL" }))
  .superRefine((value, ctx) => {
    // zod runs this refinement even when z.url() above failed: a value URL cannot parse is already refused.
    if (!URL.canParse(value)) return;
    const url = new URL(value);
    if (url.hash) ctx.addIssue({ code: "custom", message: "Redirect URI must not contain a fragment" });
    if (url.protocol !== "https:" && !isLocalHttpUrl(url)) {
      ctx.addIssue({ code: "custom", message: "Redirect URI must use https (http only for localhost)" });
    }
    if (value.includes("*")) ctx.addIssue({ code: "custom", message: "Wildcards are not allowed" });
  });

/**
 * A webhook host that can never be delivered to: an IP literal the delivery
 * guard refuses (anything but public unicast, unless inside
 * `allowedNetworks`), or `localhost` unless its loopback address is allowed.
 * Other names are judged by their resolved addresses at each delivery
 * (lib/webhooks/post-webhook.ts), so a name that rebinds gains nothing.
 */
function isUndeliverableHost(url: URL, allowedNetworks: readonly IpNetwork[]): boolean {
  const host = url.hostname;
  if (host === "localhost") return !["127.0.0.1", "::1"].some((loopback) => isAllowedDestination(loopback, allowedNetworks));
  return isIpLiteral(host) && !isAllowedDestination(host, allowedNetworks);
}

/**
 * Webhook URLs: HTTPS; test apps may also use http on localhost. No app, test
 * or production, may name a host the delivery guard refuses
 * (isUndeliverableHost).
 */
export function webhookUrlSchema(environment: "test" | "production", allowedNetworks: readonly IpNetwork[] = []) {
  return z
    .string()
    .trim()
    .pipe(z.url({ message: "Webhook URL must be an absolute URL" }))
    .superRefine((value, ctx) => {
      // zod runs this refinement even when z.url() above failed: a value URL cannot parse is already refused.
      if (!URL.canParse(value)) return;
      const url = new URL(value);
      if (isUndeliverableHost(url, allowedNetworks)) {
        ctx.addIssue({ code: "custom", message: "Webhook URL must not point to a loopback, private or other non-public address" });
      }
      if (url.protocol !== "https:" && !(environment === "test" && isLocalHttpUrl(url))) {
        ctx.addIssue({
          code: "custom",
          message:
            environment === "test"
              ? "Webhook URL must use https (http only for localhost in test apps)"
              : "Webhook URL must use https",
        });
      }
    });
}
