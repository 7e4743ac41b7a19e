import { beginSignIn } from "@/lib/oidc";

/** GET /login: off to the provider's sign-in page. */
export async function GET() {
  return Response.redirect(await beginSignIn(), 303);
}
