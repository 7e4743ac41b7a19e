import { Reply } from "@/lib/http/core/reply";
import { assertOwnPagePost } from "@/lib/oidc/browser-guard";
import { oidcPageRoute, readParams } from "@/lib/oidc/http";
import { runAccountAction, type AccountAction } from "./account-actions";
import { finishAccountSignIn, safeReturnPath, startAccountSignIn, type Redirect } from "./account-sign-in";

/** The account page's routes (app/account/...): redirects, and errors on a page. */
const go = (r: Redirect) => Reply.redirect(r.location, r.cookies);

/**
 * GET /account/sign-in[?return_to=/activate/<token>]: an activation page's
 * sign-in comes back to it. No login hint: the page shows the invited
 * address masked, and the link must not reveal it in full either.
 */
export const accountSignInRoute = oidcPageRoute(async (req) => go(await startAccountSignIn(safeReturnPath(new URL(req.url).searchParams.get("return_to")))));

export const accountCallbackRoute = oidcPageRoute(async (req) => go(await finishAccountSignIn(new URL(req.url).searchParams, req.headers.get("cookie"))));

export function accountActionRoute(action: AccountAction) {
  return oidcPageRoute(async (req) => {
    assertOwnPagePost(req);
    return go(await runAccountAction(action, await readParams(req, "body"), req.headers.get("cookie")));
  });
}
