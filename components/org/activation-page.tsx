import { PersonTextProvider } from "@/components/verify/person-text-provider";
import { DEFAULT_PERSON_LOCALE } from "@/lib/i18n/locales";
import { OidcCard } from "@/components/oidc/card";
import { FaceScan } from "@/components/oidc/face-scan";
import { SubmitButton } from "@/components/oidc/ui";
import type { ActivationView } from "@/lib/org/activation-view";

/**
 * The hosted face-activation page (lib/org/face-activation.ts): sign in with
 * the invited email, then a live selfie activates the seat.
 */
const BUTTON =
  "mt-6 inline-flex min-h-12 w-full items-center justify-center rounded-lg bg-blue-700 px-5 py-3 text-base font-semibold text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700 sm:w-auto";

export function ActivationPage({ view }: { view: ActivationView }) {
  return (
    <OidcCard>
      <h1 className="text-2xl font-semibold text-slate-900">Activate your account at {view.organization}</h1>
      {view.step === "sign_in" && (
        <>
          <p className="mt-4 text-slate-700">
            {view.organization} invited <strong>{view.invitedEmail}</strong>. Sign in with that email address (we send you a code; a new account is made if you have none), then take a short live selfie.
          </p>
          <a href={view.signInHref} className={BUTTON}>
            Sign in to activate
          </a>
        </>
      )}
      {view.step === "wrong_account" && (
        <>
          <p role="alert" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
            You are signed in as {view.signedInAs}, but this invitation is for {view.invitedEmail}. Sign out, then sign in with the invited address.
          </p>
          <form method="post" action="/account/sign-out" className="mt-4">
            <input type="hidden" name="csrf" value={view.csrf} />
            <input type="hidden" name="return_to" value={view.returnTo} />
            <SubmitButton>Sign out</SubmitButton>
          </form>
        </>
      )}
      {view.step === "face" && (
        <>
          <p className="mt-4 text-slate-700">
            Signed in as <strong>{view.email}</strong>. Take a live selfie to activate your seat: follow the head movements shown on screen. Your face is kept sealed with your account and is only compared with you.
          </p>
          {/* English, as the rest of this page, until it is translated (issue 35). */}
          <PersonTextProvider locale={DEFAULT_PERSON_LOCALE}>
            <FaceScan endpoint={view.endpoint} csrf={view.csrf} attemptsLeft={view.scansLeft} doneText={`Your account at ${view.organization} is active. You can close this page.`} />
          </PersonTextProvider>
        </>
      )}
    </OidcCard>
  );
}

export function InvalidActivation() {
  return (
    <OidcCard>
      <h1 className="text-2xl font-semibold text-slate-900">This activation link does not work</h1>
      <p className="mt-4 text-slate-700">
        It may have been replaced by a newer invitation, used already, or expired. Ask your organization to send you a new invitation.
      </p>
      <p className="mt-4 text-sm text-slate-600">
        Error code: <code>invalid_activation</code>
      </p>
    </OidcCard>
  );
}
