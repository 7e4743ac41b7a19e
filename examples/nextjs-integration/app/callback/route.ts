import { appLink } from "@/lib/config";
import { deleteCookie } from "@/lib/cookies";
import { CALLBACK_PATH, completeSignIn, LOGIN_COOKIE_NAME } from "@/lib/oidc";

/**
 * GET /callback: the provider's answer. The URL handed to openid-client is
 * rebuilt on APP_URL (the registered redirect URI), not on the Host header a
 * proxy may have changed. A refusal (`error=access_denied`) or a failed
 * check goes back home with a message.
 */
export async function GET(request: Request) {
  const received = new URL(request.url);
  const callbackUrl = appLink(CALLBACK_PATH);
  callbackUrl.search = received.search;
  let target = appLink("/");
  try {
    await completeSignIn(callbackUrl);
  } catch (err) {
    target = appLink(`/?signin_error=${encodeURIComponent(err instanceof Error ? err.message : "Sign-in failed")}`);
  }
  await deleteCookie(LOGIN_COOKIE_NAME);
  return Response.redirect(target, 303);
}
