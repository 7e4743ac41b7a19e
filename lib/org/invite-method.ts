/**
 * How an invitation goes out (spec 4.6 `invite` and `notify`; docs/organization-api.md), decided in one place:
 *   - `face`: an activation link is made and returned to the caller
 *     (`activation_link`); with `notify` it is also emailed. Status `link_sent`.
 *   - `email`: with `notify`, the link is emailed by a background job and
 *     never returned; the member is `invited` until the mail server accepts
 *     the message, then `link_sent`. Without `notify` nothing is sent
 *     (`invite_method: none`, status `invited`).
 *   - `auto` (the default): `email` when the service may email the person
 *     (`notify` true and mail configured), else `face` (the caller receives
 *     the link to deliver itself).
 * Without mail configured (production without SMTP_HOST) nothing is emailed
 * and `notified` is false: the service never pretends a message went out.
 */
export type InviteRequest = "auto" | "email" | "face";
export type InviteMethod = "face" | "email" | "none";
export type InvitePlan = { method: InviteMethod; returnLink: boolean; email: boolean };

export function planInvite(invite: InviteRequest, notify: boolean, mailAvailable: boolean): InvitePlan {
  const canEmail = notify && mailAvailable;
  const chosen = invite === "auto" ? (canEmail ? "email" : "face") : invite;
  if (chosen === "face") return { method: "face", returnLink: true, email: canEmail };
  return canEmail ? { method: "email", returnLink: false, email: true } : { method: "none", returnLink: false, email: false };
}

/** The status an invitation leaves a (not yet active) member in. */
export function statusAfterInvite(plan: InvitePlan): "invited" | "link_sent" {
  return plan.returnLink ? "link_sent" : "invited";
}
