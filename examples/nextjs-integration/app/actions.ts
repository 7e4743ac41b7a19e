"use server";

import { redirect } from "next/navigation";
import { deleteCookie } from "@/lib/cookies";
import { currentUser, USER_COOKIE_NAME } from "@/lib/oidc";
import { ServiceError, startVerification } from "@/lib/verification";

/** "Verify my identity": a hosted session for the signed-in person, and off to its page (or back home saying why not). */
export async function verifyIdentity(): Promise<void> {
  const user = await currentUser();
  if (!user) redirect("/login");
  let hostedPage: string;
  try {
    hostedPage = await startVerification(user.sub);
  } catch (err) {
    redirect(`/?verify_error=${encodeURIComponent(err instanceof ServiceError ? err.message : "The verification service could not be reached")}`);
  }
  redirect(hostedPage);
}

/** Forgets the person in this app (the provider keeps no sign-in session to end). */
export async function signOut(): Promise<void> {
  await deleteCookie(USER_COOKIE_NAME);
  redirect("/");
}
