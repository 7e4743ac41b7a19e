import { apiRoute, reply } from "@/lib/http/api-route";
import { ApiError } from "@/lib/http/api-error";
import type { RequestView } from "@/lib/http/core/request";
import { issueFaceSignInChallenge, judgeFaceSignIn, signInOver } from "@/lib/oidc/face-sign-in";
import { BURST_FRAMES } from "@/lib/liveness/challenges";
import { assertOwnPagePost } from "./browser-guard";
import { completeSignIn, loadBoundInteraction } from "./interaction";
import { csrfValid, readInteractionCookie } from "./interaction-cookie";

/**
 * The face step of the sign-in page (lib/oidc/face-sign-in.ts), called
 * by the page's script: JSON in the spec envelope. Like the page's forms,
 * only the browser that started the request (its cookie), from this origin,
 * with the page's CSRF token (header `X-CSRF-Token`), and only on the face
 * step.
 */
async function faceStep(req: RequestView, id: string, csrf: string | null | undefined) {
  assertOwnPagePost(req);
  const cookie = readInteractionCookie(req.headers.get("cookie"));
  const bound = await loadBoundInteraction(id, cookie);
  if (!bound) throw signInOver();
  if (!csrfValid(bound.secret, csrf)) throw new ApiError("forbidden", { message: "Missing or wrong CSRF token: reload the page" });
  const { interaction } = bound;
  if (interaction.accountId || !interaction.pendingEmail || interaction.pendingMethod !== "face") {
    throw new ApiError("invalid_request", { message: "Choose “Sign in with my face” on the sign-in page first" });
  }
  return { interactionId: interaction.id, email: interaction.pendingEmail };
}

/** POST /oidc/interaction/{id}/face/challenge: 201 with the challenge (actions, frames, tries left). */
export const faceChallengeRoute = apiRoute({ auth: "none", rawBody: true, bodyLimit: 4096 }, async ({ req, params }) => {
  const step = await faceStep(req, params.id ?? "", req.headers.get("x-csrf-token"));
  return reply(await issueFaceSignInChallenge(step.interactionId, step.email), 201, { "Cache-Control": "no-store" });
});

/**
 * POST /oidc/interaction/{id}/face: the burst (`frames`, `challenge_id`; the
 * CSRF token in the `X-CSRF-Token` header, checked before the upload is
 * read); signed in: `{ location }` of the consent step (for the account
 * page, which asks no consent, the way back with the code).
 */
export const faceBurstRoute = apiRoute(
  {
    auth: "none",
    upload: { maxFiles: BURST_FRAMES.max },
    beforeBody: async (req, params) => void (await faceStep(req, params.id ?? "", req.headers.get("x-csrf-token"))),
  },
  async ({ req, params, upload }) => {
    const step = await faceStep(req, params.id ?? "", req.headers.get("x-csrf-token"));
    const { accountId } = await judgeFaceSignIn(step.interactionId, step.email, upload!);
    const signedIn = await completeSignIn(step.interactionId, accountId, req.headers.get("cookie"));
    if (!signedIn) throw signInOver();
    return reply({ signed_in: true, location: signedIn.location }, 200, { "Cache-Control": "no-store", "Set-Cookie": signedIn.setCookie });
  },
);
