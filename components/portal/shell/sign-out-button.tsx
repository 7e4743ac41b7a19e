"use client";

import { Button } from "@/components/ui/button";
import { text } from "../api";
import { useCsrfToken } from "../auth/csrf";

/** next-auth's sign-out: a POST with its CSRF token; next-auth clears the session cookie and returns to the sign-in page. */
export function SignOutButton() {
  const csrfToken = useCsrfToken();
  return (
    <form method="post" action="/api/portal/auth/signout">
      <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
      <input type="hidden" name="callbackUrl" value="/sign-in?signedOut=1" />
      <Button type="submit" variant="secondary" className="min-h-10 px-3 py-1.5 text-sm" disabled={!csrfToken}>
        {text.shell.signOut}
      </Button>
    </form>
  );
}
