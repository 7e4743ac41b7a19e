import { clientIp } from "@/lib/http/client-ip";
import { assertOwnPagePost } from "./browser-guard";
import { oidcPageRoute, readParams, redirect } from "./http";
import type { ActionResult, FormInput } from "./interaction";
import { readInteractionCookie } from "./interaction-cookie";

/**
 * A form post of the sign-in pages (plain HTML forms: they work without
 * JavaScript). Refused when sent from inside a frame (Sec-Fetch-Dest) or
 * from another origin; the action itself checks the interaction cookie and
 * the CSRF token, then the browser is sent on with a 303.
 */
export function interactionFormRoute(action: (input: FormInput) => Promise<ActionResult>) {
  return oidcPageRoute(async (req, { params }) => {
    assertOwnPagePost(req);
    const form = await readParams(req, "body");
    const result = await action({
      id: params.id ?? "",
      cookie: readInteractionCookie(req.headers.get("cookie")),
      cookieHeader: req.headers.get("cookie"),
      form,
      ip: clientIp(req),
    });
    return redirect(result.location, result.setCookie);
  });
}
