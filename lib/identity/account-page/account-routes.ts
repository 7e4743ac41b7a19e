import { Reply } from "@/lib/http/core/reply";
import { assertOwnPagePost } from "@/lib/oidc/browser-guard";
import { oidcPageRoute, readParams } from "@/lib/oidc/http";
import { runAccountAction, type AccountAction } from "./account-actions";
import { finishAccountSignIn, startAccountSignIn, type Redirect } from "./account-sign-in";

/** The account page's routes (app/account/...): redirects, and errors on a page. */
const go = (r: Redirect) => Reply.redirect(r.location, r.cookies);

export const accountSignInRoute = oidcPageRoute(async () => go(await startAccountSignIn()));

export const accountCallbackRoute = oidcPageRoute(async (req) => go(await finishAccountSignIn(new URL(req.url).searchParams, req.headers.get("cookie"))));

export function accountActionRoute(action: AccountAction) {
  return oidcPageRoute(async (req) => {
    assertOwnPagePost(req);
    return go(await runAccountAction(action, await readParams(req, "body"), req.headers.get("cookie")));
  });
}
