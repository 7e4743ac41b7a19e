import { DEFAULT_LOCALE, messagesFor } from "@/lib/i18n";

// Not from ../api (a client module): usable by server components too.
const t = messagesFor(DEFAULT_LOCALE).portal.organization;

const TONES: Record<string, string> = {
  active: "bg-green-100 text-green-900",
  link_sent: "bg-blue-100 text-blue-950",
  invited: "bg-amber-100 text-amber-950",
  deactivated: "bg-slate-200 text-slate-900",
};

/** A member's status (spec 2.7) as a labelled pill: the word, never colour alone. */
export function MemberStatus({ status }: { status: string }) {
  return (
    <span data-status={status} className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-sm font-medium ${TONES[status] ?? "bg-slate-100 text-slate-900"}`}>
      {t.statuses[status] ?? status}
    </span>
  );
}
