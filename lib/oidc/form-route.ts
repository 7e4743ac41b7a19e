import { ApiError } from "@/lib/http/api-error";
import { clientIp } from "@/lib/http/client-ip";
import { issuer } from "./config";
import { oidcPageRoute, readParams, redirect } from "./http";
import type { ActionResult, FormInput } from "./interaction";
import { readInteractionCookie } from "./interaction-cookie";

const FRAMED = new Set(["iframe", "frame", "embed", "object", "fencedframe"]);

/**
 * A form post of the sign-in pages (plain HTML forms: they work without
 * JavaScript). Refused when sent from inside a frame (Sec-Fetch-Dest) or
 * from another origin; the action itself checks the interaction cookie and
 * the CSRF token, then the browser is sent on with a 303.
 */
export function interactionFormRoute(action: (input: FormInput) => Promise<ActionResult>) {
  return oidcPageRoute(async (req, { params }) => {
    if (FRAMED.has(req.headers.get("sec-fetch-dest") ?? "")) {
      throw new ApiError("forbidden", { message: "The sign-in pages cannot be used inside a frame" });
    }
    const origin = req.headers.get("origin");
    if (origin && origin !== "null" && origin !== new URL(issuer()).origin) {
      throw new ApiError("forbidden", { message: "Cross-origin form posts are not accepted" });
    }
    const form = await readParams(req, "body");
    const result = await action({
      id: params.id ?? "",
      cookie: readInteractionCookie(req.headers.get("cookie")),
      form,
      ip: clientIp(req),
    });
    return redirect(result.location, result.setCookie);
  });
}
