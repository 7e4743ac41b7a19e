import { PersonTextProvider } from "@/components/verify/person-text-provider";
import { DEFAULT_PERSON_LOCALE } from "@/lib/i18n/locales";
import type { InteractionView } from "@/lib/oidc/interaction";
import { STRINGS } from "@/lib/accounts/sign-in-strings";
import { OidcCard } from "./card";
import { FaceScan } from "./face-scan";
import { ActionForm, INPUT, Notice, SubmitButton } from "./ui";

type Live = Exclude<InteractionView, { step: "gone" }>;
type Message = { tone: "error" | "success" | "info"; text: string } | null;

/** The page's message for the `?m=` code a form post left, with live details (attempts left). */
export function messageFor(code: string | undefined, view: Live): Message {
  const m = STRINGS.messages;
  switch (code) {
    case undefined:
      return null;
    case "otp_invalid":
      return { tone: "error", text: m.otp_invalid(view.attemptsLeft ?? 0) };
    case "otp_locked":
    case "otp_expired":
    case "otp_not_found":
    case "code_format":
    case "email_invalid":
    case "too_many_codes":
    case "mail_failed":
    case "mail_not_configured":
    case "csrf":
      return { tone: "error", text: m[code] };
    case "code_sent":
      return { tone: "success", text: m.code_sent(view.email ?? "") };
    default:
      return null;
  }
}

function Cancel({ view }: { view: Live }) {
  return (
    <ActionForm id={view.id} action="consent" csrf={view.csrf} className="mt-6 border-t border-slate-200 pt-4">
      <SubmitButton variant="link" name="decision" value="deny">
        {STRINGS.email.cancel}
      </SubmitButton>
    </ActionForm>
  );
}

export function EmailStep({ view, message }: { view: Live; message: Message }) {
  const s = STRINGS.email;
  const error = message?.tone === "error";
  return (
    <OidcCard app={view.app}>
      <h1 className="text-2xl font-semibold text-slate-900">{s.heading}</h1>
      <p className="mt-2 text-slate-700">{STRINGS.layout.continueTo(view.app.name)}</p>
      {message && (
        <Notice tone={message.tone} id="form-message">
          {message.text}
        </Notice>
      )}
      {view.mail === "disabled" ? (
        <Notice tone="error">{s.mailNotConfigured}</Notice>
      ) : (
        <p className="mt-4 text-slate-700">{s.intro}</p>
      )}
      {view.mail === "console" && <Notice tone="info">{s.devConsole}</Notice>}
      <ActionForm id={view.id} action="email" csrf={view.csrf} className="mt-6">
        <label htmlFor="email" className="block font-semibold text-slate-900">
          {s.label}
        </label>
        <input
          id="email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          maxLength={254}
          defaultValue={view.email ?? ""}
          autoFocus
          aria-invalid={error || undefined}
          aria-describedby={error ? "form-message" : undefined}
          className={INPUT}
        />
        {/* Enter submits the first button: the code when mail works, else the face. */}
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          {view.mail !== "disabled" && <SubmitButton>{s.submit}</SubmitButton>}
          <SubmitButton variant={view.mail === "disabled" ? "primary" : "secondary"} name="method" value="face">
            {view.mail === "disabled" ? s.faceOnly : s.face}
          </SubmitButton>
        </div>
      </ActionForm>
      <Cancel view={view} />
    </OidcCard>
  );
}

export function CodeStep({ view, message }: { view: Live; message: Message }) {
  const s = STRINGS.code;
  const error = message?.tone === "error";
  return (
    <OidcCard app={view.app}>
      <h1 className="text-2xl font-semibold text-slate-900">{s.heading}</h1>
      <p className="mt-2 text-slate-700">{s.intro(view.email ?? "")}</p>
      {view.mail === "console" && <Notice tone="info">{STRINGS.email.devConsole}</Notice>}
      {message && (
        <Notice tone={message.tone} id="form-message">
          {message.text}
        </Notice>
      )}
      <ActionForm id={view.id} action="code" csrf={view.csrf} className="mt-6">
        <label htmlFor="code" className="block font-semibold text-slate-900">
          {s.label}
        </label>
        <p id="code-hint" className="mt-1 text-sm text-slate-700">
          {s.hint}
        </p>
        <input
          id="code"
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          autoFocus
          aria-invalid={error || undefined}
          aria-describedby={error ? "code-hint form-message" : "code-hint"}
          className={`${INPUT} tracking-[0.5em]`}
        />
        <div className="mt-6">
          <SubmitButton>{s.submit}</SubmitButton>
        </div>
      </ActionForm>
      <div className="mt-6 flex flex-col items-start gap-1">
        <ActionForm id={view.id} action="email" csrf={view.csrf}>
          <SubmitButton variant="link" name="resend" value="1">
            {s.resend}
          </SubmitButton>
        </ActionForm>
        <ActionForm id={view.id} action="email" csrf={view.csrf}>
          <SubmitButton variant="link" name="method" value="face">
            {STRINGS.email.face}
          </SubmitButton>
        </ActionForm>
        <ActionForm id={view.id} action="restart" csrf={view.csrf}>
          <SubmitButton variant="link">{s.otherEmail}</SubmitButton>
        </ActionForm>
      </div>
      <Cancel view={view} />
    </OidcCard>
  );
}

/** The face step: the camera scan needs the page's script; the emailed code is the way without it. */
export function FaceStep({ view, message }: { view: Live; message: Message }) {
  const s = STRINGS.face;
  return (
    <OidcCard app={view.app}>
      <h1 className="text-2xl font-semibold text-slate-900">{s.heading}</h1>
      <p className="mt-2 text-slate-700">{s.intro(view.email ?? "")}</p>
      {message && (
        <Notice tone={message.tone} id="form-message">
          {message.text}
        </Notice>
      )}
      <p className="mt-4 text-slate-700">{s.how}</p>
      <p className="mt-2 text-slate-700">{s.onlyIfVerified}</p>
      {/* English, as the rest of this page, until it is translated (issue 35). */}
      <PersonTextProvider locale={DEFAULT_PERSON_LOCALE}>
        <FaceScan endpoint={`/oidc/interaction/${encodeURIComponent(view.id)}/face`} csrf={view.csrf} attemptsLeft={view.attemptsLeft ?? 0} />
      </PersonTextProvider>
      <div className="mt-6 flex flex-col items-start gap-1">
        {view.mail !== "disabled" && (
          <ActionForm id={view.id} action="email" csrf={view.csrf}>
            <SubmitButton variant="link" name="resend" value="1">
              {s.useCode}
            </SubmitButton>
          </ActionForm>
        )}
        <ActionForm id={view.id} action="restart" csrf={view.csrf}>
          <SubmitButton variant="link">{STRINGS.code.otherEmail}</SubmitButton>
        </ActionForm>
      </div>
      <Cancel view={view} />
    </OidcCard>
  );
}

export function ConsentStep({ view, message }: { view: Live; message: Message }) {
  const s = STRINGS.consent;
  const readable = view.scopes.filter((scope) => scope !== "openid");
  return (
    <OidcCard app={view.app}>
      <h1 className="text-2xl font-semibold text-slate-900">{s.heading(view.app.name)}</h1>
      {view.email && <p className="mt-2 text-slate-700">{s.signedInAs(view.email)}</p>}
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      <p className="mt-4 text-slate-700">{s.intro(view.app.name)}</p>
      {readable.length ? (
        <ul className="mt-3 list-disc space-y-1 pl-6 text-slate-900">
          {readable.map((scope) => (
            <li key={scope}>{STRINGS.scopes[scope] ?? scope}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-slate-900">{s.nothingElse}</p>
      )}
      <ActionForm id={view.id} action="consent" csrf={view.csrf} className="mt-8 flex flex-col gap-3 sm:flex-row">
        <SubmitButton name="decision" value="allow">
          {s.allow}
        </SubmitButton>
        <SubmitButton variant="secondary" name="decision" value="deny">
          {s.deny}
        </SubmitButton>
      </ActionForm>
      <ActionForm id={view.id} action="restart" csrf={view.csrf} className="mt-4">
        <SubmitButton variant="link">{s.switchAccount}</SubmitButton>
      </ActionForm>
      <p className="mt-6 text-sm text-slate-700">{s.note}</p>
    </OidcCard>
  );
}

export function GoneStep({ framed = false }: { framed?: boolean }) {
  const s = framed ? STRINGS.framed : STRINGS.interactionGone;
  return (
    <OidcCard>
      <h1 className="text-2xl font-semibold text-slate-900">{s.heading}</h1>
      <p className="mt-4 text-slate-700">{s.message}</p>
    </OidcCard>
  );
}
