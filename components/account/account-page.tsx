import { OidcCard } from "@/components/oidc/card";
import { INPUT, Notice, SubmitButton } from "@/components/oidc/ui";
import type { ProofState } from "@/lib/identity/profile";
import { ACCOUNT_STRINGS as S } from "@/lib/account-page/account-strings";
import type { AccountView } from "@/lib/account-page/account-view";
import { STRINGS as OIDC_STRINGS } from "@/lib/accounts/sign-in-strings";
import { ConfirmedPost } from "./confirmed-post";

/**
 * The account page's views: server components, plain HTML forms (they work
 * without JavaScript), each with the page's CSRF token; revoking an app
 * asks for confirmation first (ConfirmedPost, which needs the page's script).
 */
type Message = { tone: "success" | "error" | "info"; text: string } | null;
type SignedIn = Extract<AccountView, { signedIn: true }>;

function PostForm({ action, csrf, children, className = "" }: { action: string; csrf: string; children: React.ReactNode; className?: string }) {
  return (
    <form method="post" action={`/account/${action}`} className={className}>
      <input type="hidden" name="csrf" value={csrf} />
      {children}
    </form>
  );
}

const STATE_STYLE: Record<ProofState, string> = {
  valid: "border-green-700 text-green-900",
  stale: "border-amber-700 text-amber-900",
  expired: "border-red-700 text-red-900",
};

function State({ state }: { state: ProofState }) {
  return <span className={`ml-2 inline-block rounded border px-2 py-0.5 text-sm font-semibold ${STATE_STYLE[state]}`}>{S.proven.states[state]}</span>;
}

/** One thing proven: what, its state now, and when. */
function Proven({ title, state, lines }: { title: string; state: ProofState; lines: Array<string | null> }) {
  return (
    <li>
      <p className="font-semibold text-slate-900">
        {title}
        <State state={state} />
      </p>
      {lines.filter(Boolean).map((line) => (
        <p key={line} className="text-sm text-slate-700">
          {line}
        </p>
      ))}
    </li>
  );
}

export function AccountSignIn({ message }: { message: Message }) {
  return (
    <OidcCard>
      <h1 className="text-2xl font-semibold text-slate-900">{S.heading}</h1>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      <p className="mt-4 text-slate-700">{S.intro}</p>
      <p className="mt-2 text-slate-700">{S.signInNote}</p>
      <a
        href="/account/sign-in"
        className="mt-6 inline-flex min-h-12 w-full items-center justify-center rounded-lg bg-blue-700 px-5 py-3 text-base font-semibold text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700 sm:w-auto"
      >
        {S.signIn}
      </a>
    </OidcCard>
  );
}

export function AccountDetails({ view, message }: { view: SignedIn; message: Message }) {
  const nothing = !view.document && !view.face && view.licences.length === 0;
  return (
    <OidcCard>
      <h1 className="text-2xl font-semibold text-slate-900">{S.heading}</h1>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <p className="text-slate-700">{S.signedInAs(view.email)}</p>
        <PostForm action="sign-out" csrf={view.csrf}>
          <SubmitButton variant="link">{S.signOut}</SubmitButton>
        </PostForm>
      </div>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}

      <section aria-labelledby="proven" className="mt-8">
        <h2 id="proven" className="text-lg font-semibold text-slate-900">
          {S.proven.heading}
        </h2>
        {nothing ? (
          <p className="mt-2 text-slate-700">{S.proven.none}</p>
        ) : (
          <ul className="mt-3 space-y-3" data-testid="proofs">
            {view.document && (
              <Proven
                title={S.proven.document(view.document.documentType, view.document.issuingCountry)}
                state={view.document.state}
                lines={[
                  `${S.proven.verifiedOn(view.document.verifiedAt)}${view.document.validUntil ? `, ${S.proven.validUntil(view.document.validUntil)}` : ""}`,
                  view.ageOver18 === undefined ? null : S.proven.age(view.ageOver18),
                ]}
              />
            )}
            {view.face && <Proven title={S.proven.face} state={view.face.state} lines={[S.proven.verifiedOn(view.face.verifiedAt), S.proven.faceUse]} />}
            {view.licences.map((l) => (
              <Proven
                key={`${l.type}-${l.verifiedAt.toISOString()}`}
                title={S.proven.licence(l.type)}
                state={l.state}
                lines={[`${S.proven.verifiedOn(l.verifiedAt)}${l.expiresOn ? `, ${S.proven.validUntil(l.expiresOn)}` : ""}`]}
              />
            ))}
          </ul>
        )}
        <p className="mt-3 text-sm text-slate-700">{S.proven.privacy}</p>
      </section>

      <section aria-labelledby="apps" className="mt-8">
        <h2 id="apps" className="text-lg font-semibold text-slate-900">
          {S.apps.heading}
        </h2>
        {view.apps.length === 0 ? (
          <p className="mt-2 text-slate-700">{S.apps.none}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200" data-testid="shared-apps">
            {view.apps.map((app) => (
              <li key={app.app_id} className="py-3">
                <p className="font-semibold text-slate-900">{app.name}</p>
                <p className="text-sm text-slate-700">
                  {S.apps.firstShared(app.first_shared_at)}, {S.apps.lastShared(app.last_shared_at)}
                </p>
                {app.revoked_at ? (
                  <p className="text-sm font-semibold text-slate-900">{S.apps.revokedOn(app.revoked_at)}</p>
                ) : (
                  <ConfirmedPost
                    action="revoke"
                    csrf={view.csrf}
                    appId={app.app_id}
                    label={S.apps.revoke(app.name)}
                    buttonText={S.apps.revokeShort}
                    confirm={{ heading: S.apps.confirm.heading(app.name), consequences: S.apps.confirm.consequences, confirmLabel: S.apps.confirm.confirm, pendingLabel: S.apps.confirm.pending }}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        <p className="mt-2 text-sm text-slate-700">{S.apps.revokeNote}</p>
      </section>

      <section aria-labelledby="sign-ins" className="mt-8">
        <h2 id="sign-ins" className="text-lg font-semibold text-slate-900">
          {S.signIns.heading}
        </h2>
        {view.signIns.length === 0 ? (
          <p className="mt-2 text-slate-700">{S.signIns.none}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200" data-testid="signed-in-apps">
            {view.signIns.map((app) => (
              <li key={app.app_id} className="py-3">
                <p className="font-semibold text-slate-900">{app.name}</p>
                <p className="text-sm text-slate-700">
                  {`${S.signIns.grantedOn(app.granted_at)}${app.last_used_at ? `, ${S.signIns.lastUsed(app.last_used_at)}` : ""}`}
                </p>
                <p className="mt-1 text-sm text-slate-700">{S.signIns.mayRead}</p>
                <ul className="list-disc pl-5 text-sm text-slate-700">
                  {app.scopes.map((scope) => (
                    <li key={scope}>{OIDC_STRINGS.scopes[scope] ?? scope}</li>
                  ))}
                </ul>
                <ConfirmedPost
                  action="end-sign-in"
                  csrf={view.csrf}
                  appId={app.app_id}
                  label={S.signIns.revoke(app.name)}
                  buttonText={S.signIns.revokeShort}
                  confirm={{ heading: S.signIns.confirm.heading(app.name), consequences: S.signIns.confirm.consequences, confirmLabel: S.signIns.confirm.confirm, pendingLabel: S.signIns.confirm.pending }}
                />
              </li>
            ))}
          </ul>
        )}
        <p className="mt-2 text-sm text-slate-700">{S.signIns.note}</p>
      </section>

      <section aria-labelledby="delete" className="mt-8 border-t border-slate-200 pt-6">
        <h2 id="delete" className="text-lg font-semibold text-slate-900">
          {S.delete.heading}
        </h2>
        <p className="mt-2 text-slate-700">{S.delete.what}</p>
        <PostForm action="delete" csrf={view.csrf} className="mt-4">
          <label htmlFor="confirm" className="block font-semibold text-slate-900">
            {S.delete.label}
          </label>
          <input id="confirm" name="confirm" type="text" autoComplete="off" required pattern="[Dd][Ee][Ll][Ee][Tt][Ee]" className={INPUT} />
          <button
            type="submit"
            className="mt-4 inline-flex min-h-12 w-full items-center justify-center rounded-lg bg-red-800 px-5 py-3 text-base font-semibold text-white hover:bg-red-900 focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700 sm:w-auto"
          >
            {S.delete.submit}
          </button>
        </PostForm>
      </section>
    </OidcCard>
  );
}
