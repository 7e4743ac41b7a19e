import type { ActorView } from "@/lib/audit/actors";
import { DEFAULT_LOCALE, messagesFor } from "@/lib/i18n";
import type { ReviewReason } from "@/lib/sessions/review-view";

// Not from ../api (a client module): the server pages use these too.
const t = messagesFor(DEFAULT_LOCALE).portal;

export const statusLabel = (status: string) => t.sessions.statuses[status] ?? status;
export const checkStatusLabel = (status: string) => t.sessions.checkStatuses[status] ?? status;
export const checkName = (type: string) => t.sessions.checkNames[type] ?? type;

/** Scores and similarities as the engine computed them, to 3 decimals at most. */
export function formatScore(value: unknown): string {
  return typeof value === "number" && Number.isFinite(value) ? String(Math.round(value * 1000) / 1000) : t.sessions.none;
}

/** Why the engine sent a check to review: its own message, or (face match) the similarity against the threshold. */
export function reasonText(reason: ReviewReason): string {
  if (reason.message) return reason.message;
  const { similarity, threshold } = reason.data as { similarity?: unknown; threshold?: unknown };
  if (typeof similarity === "number" && typeof threshold === "number") return t.review.reasonFaceMatch(formatScore(similarity), formatScore(threshold));
  if (reason.score !== null) return t.review.reasonScore(formatScore(reason.score));
  return t.review.reasonUnknown;
}

export function actorText(actor: ActorView): string {
  return t.sessions.actors[actor.kind](actor.label);
}

/** A check's data in one line (`similarity: 0.58, threshold: 0.61`), and its error's message. */
export function checkDetails(check: { data: Record<string, unknown>; error: Record<string, unknown> | null }): string {
  const parts = Object.entries(check.data ?? {})
    .filter(([, v]) => v === null || ["string", "number", "boolean"].includes(typeof v))
    .map(([k, v]) => `${k}: ${typeof v === "number" ? formatScore(v) : String(v)}`);
  const message = typeof check.error?.message === "string" ? check.error.message : null;
  return [...parts, ...(message ? [message] : [])].join(", ") || t.sessions.none;
}

const STATUS_TONES: Record<string, string> = {
  APPROVED: "bg-green-100 text-green-900",
  passed: "bg-green-100 text-green-900",
  DECLINED: "bg-red-100 text-red-900",
  failed: "bg-red-100 text-red-900",
  IN_REVIEW: "bg-amber-100 text-amber-950",
  review: "bg-amber-100 text-amber-950",
  IN_PROGRESS: "bg-blue-100 text-blue-950",
};

/** The classes of a status pill (colour plus the text, never colour alone). */
export function statusTone(status: string): string {
  return `inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-sm font-medium ${STATUS_TONES[status] ?? "bg-slate-100 text-slate-900"}`;
}
