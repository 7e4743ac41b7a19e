import type { Session } from "@/generated/prisma/client";
import type { WorkflowSnapshot } from "@/lib/sessions/present";

/** The licence types a session's workflow accepts (`credential.license_types`); empty accepts any. */
export function sessionLicenceTypes(session: Pick<Session, "workflowSnapshot">): string[] {
  return (session.workflowSnapshot as WorkflowSnapshot).settings.credential?.license_types ?? [];
}
