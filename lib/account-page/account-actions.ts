import { deleteAccount, revokeAppAccess } from "@/lib/account-page/account-lifecycle";
import { ACCOUNT_COOKIE, accountCsrfValid, clearAccountSession, readCookie, signedInAccount } from "./account-cookies";
import { issuer } from "@/lib/oidc/config";
import { endAppSignIn } from "@/lib/oidc/grants/signed-in-apps";
import { accountPageUrl, safeReturnPath, type Redirect } from "./account-sign-in";

/**
 * The account page's form posts (sign out, revoke an app's access to the
 * proofs, end an app's sign-in, delete the account): each needs the signed-in cookie and the page's CSRF token, and
 * sends the browser back to the page with a message.
 */
export type AccountAction = "sign_out" | "revoke" | "end_sign_in" | "delete";

export async function runAccountAction(action: AccountAction, form: Map<string, string>, cookieHeader: string | null): Promise<Redirect> {
  const cookie = readCookie(cookieHeader, ACCOUNT_COOKIE);
  const accountId = signedInAccount(cookie);
  if (!accountId) return { location: accountPageUrl("signed_out"), cookies: clearAccountSession() };
  if (!accountCsrfValid(cookie, form.get("csrf"))) return { location: accountPageUrl("csrf"), cookies: [] };
  if (action === "sign_out") {
    const back = safeReturnPath(form.get("return_to"));
    return { location: back ? `${issuer()}${back}` : accountPageUrl("signed_out"), cookies: clearAccountSession() };
  }
  if (action === "revoke") {
    const appId = form.get("app_id") ?? "";
    const revoked = appId !== "" && (await revokeAppAccess(accountId, appId));
    return { location: accountPageUrl(revoked ? "revoked" : "not_found"), cookies: [] };
  }
  if (action === "end_sign_in") {
    const appId = form.get("app_id") ?? "";
    const ended = appId !== "" && (await endAppSignIn(accountId, appId));
    return { location: accountPageUrl(ended ? "sign_in_ended" : "sign_in_not_found"), cookies: [] };
  }
  // Deleting needs the person to type DELETE: a stray click never deletes an identity.
  if ((form.get("confirm") ?? "").trim().toUpperCase() !== "DELETE") return { location: accountPageUrl("confirm_delete"), cookies: [] };
  await deleteAccount(accountId);
  return { location: accountPageUrl("deleted"), cookies: clearAccountSession() };
}
