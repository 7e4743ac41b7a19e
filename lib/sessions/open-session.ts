import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/api-error";
import { isTerminal } from "./statuses";

/**
 * The one "open session" rule: a session accepts steps of the hosted flow
 * (checks, the finish) only while open. Expired or abandoned (or past its
 * expiry): 410 `session_expired`; decided or waiting for review: 409
 * `session_closed`.
 */
export function assertSessionOpen(session: { status: string; expiresAt: Date }, at: Date = now()): void {
  if (session.status === "EXPIRED" || session.status === "ABANDONED" || session.expiresAt <= at) {
    throw new ApiError("session_expired", { message: "This verification session has expired" });
  }
  if (isTerminal(session.status) || session.status === "IN_REVIEW") {
    throw new ApiError("session_closed", { message: `This verification session is already ${session.status}` });
  }
}
