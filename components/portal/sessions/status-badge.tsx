import { checkStatusLabel, statusLabel, statusTone } from "./labels";

/** A session status (`APPROVED`) or a check status (`passed`) as a labelled pill. */
export function StatusBadge({ status, kind = "session" }: { status: string; kind?: "session" | "check" }) {
  return <span className={statusTone(status)}>{kind === "session" ? statusLabel(status) : checkStatusLabel(status)}</span>;
}
