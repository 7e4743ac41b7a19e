import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { UUID_PATTERN } from "@/lib/http/validation";
import { hasSessionExpired } from "./open-session";

export type HostedPageOfSession = {
  /** The origins whose pages may show the hosted page in a frame: those its app registered (docs/hosted-flow.md "The hosted verification page"). */
  frameOrigins: string[];
  /** The language the app asked for (`language` on creation), or null. */
  language: string | null;
};

/** What the hosted page of a session is served with; no frame origins and no language for an unknown or expired session. */
export async function hostedPageOfSession(sessionId: string, at: Date = now()): Promise<HostedPageOfSession> {
  const none = { frameOrigins: [], language: null };
  if (!UUID_PATTERN.test(sessionId)) return none;
  const prisma = await db();
  const session = await prisma.session.findUnique({
    where: { id: sessionId },
    select: { status: true, expiresAt: true, language: true, app: { select: { frameOrigins: true } } },
  });
  if (!session || hasSessionExpired(session, at)) return none;
  return { frameOrigins: session.app.frameOrigins, language: session.language };
}
