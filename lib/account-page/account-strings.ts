import type { ProofState } from "@/lib/identity/profile";

/** Every string of the person's account page (/account). */
const date = (d: Date | string) => new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(typeof d === "string" ? new Date(d) : d);

export const ACCOUNT_STRINGS = {
  title: "Your account",
  heading: "Your account",
  intro: "See what you have proven, which apps received your proofs, take back an app's access, or delete your account.",
  signIn: "Sign in",
  signInNote: "You sign in with a code sent to your email, or with your face if you verified your identity before.",
  signedInAs: (email: string) => `Signed in as ${email}.`,
  signOut: "Sign out",
  proven: {
    heading: "What you have proven",
    none: "Nothing yet. When you verify your identity for an app that uses this service, what you prove is saved here, so the next app can reuse it.",
    document: (type: string, country: string | null) => `Identity document: ${type.replace(/_/g, " ")}${country ? ` (${country})` : ""}`,
    face: "Enrolled face, from your selfie video",
    faceUse: "Used for face sign-in, and to confirm it is you when an app asks you to verify again.",
    licence: (type: string) => `Licence: ${type}`,
    age: (over18: boolean) => (over18 ? "Age: over 18" : "Age: under 18"),
    verifiedOn: (d: Date) => `verified on ${date(d)}`,
    validUntil: (d: Date | string) => `valid until ${date(d)}`,
    states: { valid: "Valid", stale: "Needs renewing", expired: "Expired" } satisfies Record<ProofState, string>,
    privacy: "This page never shows your document's details (name, date of birth, number). Apps receive proofs, not your document.",
  },
  apps: {
    heading: "Apps that received your proofs",
    none: "No app has received your proofs.",
    firstShared: (d: string) => `First shared on ${date(d)}`,
    lastShared: (d: string) => `last on ${date(d)}`,
    revokedOn: (d: string) => `Access revoked on ${date(d)}`,
    revoke: (name: string) => `Revoke access for ${name}`,
    revokeShort: "Revoke access",
    revokeNote: "A revoked app can no longer read your identity, and its sign-ins with your account end at once. It keeps the verification results it already received.",
    confirm: {
      heading: (name: string) => `Revoke access for ${name}?`,
      consequences: [
        "It can no longer read your identity or your proofs.",
        "Its sign-ins with your account end at once.",
        "It keeps the verification results it already received.",
      ],
      confirm: "Revoke access",
      pending: "Revoking…",
    },
  },
  signIns: {
    heading: "Apps you signed in to",
    none: "You are not signed in to any app with this account.",
    mayRead: "It may read:",
    grantedOn: (d: string) => `Allowed on ${date(d)}`,
    lastUsed: (d: string) => `last used on ${date(d)}`,
    revoke: (name: string) => `Revoke sign-in for ${name}`,
    revokeShort: "Revoke",
    note: "Revoking ends the app's sign-in at once: it can no longer read anything about you until you sign in to it again.",
    confirm: {
      heading: (name: string) => `Revoke ${name}'s sign-in?`,
      consequences: [
        "The app can no longer read any of the details listed, from now on.",
        "You are signed out of the app; signing in again asks for your permission again.",
      ],
      confirm: "Revoke",
      pending: "Revoking…",
    },
  },
  delete: {
    heading: "Delete your account",
    what: "Deletes your proofs, your enrolled face and your sign-ins. The apps' verification records stay, without your account: they show what was decided, not who you are now.",
    label: "Type DELETE to confirm",
    submit: "Delete my account",
  },
  messages: {
    revoked: { tone: "success", text: "Access revoked. That app can no longer read your identity." },
    not_found: { tone: "error", text: "That app has not received your proofs." },
    sign_in_ended: { tone: "success", text: "Sign-in revoked. That app can no longer read anything about you." },
    sign_in_not_found: { tone: "error", text: "You are not signed in to that app." },
    deleted: { tone: "success", text: "Your account is deleted. You are signed out." },
    signed_out: { tone: "info", text: "You are signed out." },
    sign_in_failed: { tone: "error", text: "Signing in did not work. Please try again." },
    sign_in_cancelled: { tone: "info", text: "Sign-in cancelled." },
    csrf: { tone: "error", text: "The form expired. Please try again." },
    confirm_delete: { tone: "error", text: "To delete your account, type DELETE in the box, then press the button." },
  } as Record<string, { tone: "success" | "error" | "info"; text: string }>,
} as const;
