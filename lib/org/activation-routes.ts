import { apiRoute, reply } from "@/lib/http/api-route";
import { ApiError } from "@/lib/http/api-error";
import type { RequestView } from "@/lib/http/core/request";
import { ACCOUNT_COOKIE, accountCsrfValid, readCookie, signedInAccount } from "@/lib/account-page/account-cookies";
import { BURST_FRAMES } from "@/lib/liveness/challenges";
import { assertOwnPagePost } from "@/lib/oidc/browser-guard";
import { activateByFace, activationFor, issueActivationChallenge } from "./face-activation";

/**
 * The activation page's calls (JSON in the spec envelope): only from this
 * origin, signed in (the account page's cookie) as the invited email, with
 * the page's CSRF token in `X-CSRF-Token`; checked before an upload is read.
 */
async function activationStep(req: RequestView, token: string) {
  assertOwnPagePost(req);
  const cookie = readCookie(req.headers.get("cookie"), ACCOUNT_COOKIE);
  const accountId = signedInAccount(cookie);
  if (!accountId) throw new ApiError("requires_login", { message: "Your sign-in ended: reload the page and sign in again" });
  if (!accountCsrfValid(cookie, req.headers.get("x-csrf-token") ?? undefined)) throw new ApiError("forbidden", { message: "Missing or wrong CSRF token: reload the page" });
  return { accountId, activation: await activationFor(token, accountId) };
}

export const activationChallengeRoute = apiRoute({ auth: "none", rawBody: true, bodyLimit: 4096 }, async ({ req, params }) => {
  const step = await activationStep(req, params.token ?? "");
  return reply(await issueActivationChallenge(step.activation), 201, { "Cache-Control": "no-store" });
});

export const activationFaceRoute = apiRoute(
  {
    auth: "none",
    upload: { maxFiles: BURST_FRAMES.max },
    beforeBody: async (req, params) => void (await activationStep(req, params.token ?? "")),
  },
  async ({ req, params, upload }) => {
    const step = await activationStep(req, params.token ?? "");
    const result = await activateByFace(step.activation, step.accountId, upload!);
    return reply(result, 200, { "Cache-Control": "no-store" });
  },
);
