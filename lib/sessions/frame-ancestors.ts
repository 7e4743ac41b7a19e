import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { UUID_PATTERN } from "@/lib/http/validation";
import { hasSessionExpired } from "./open-session";

/**
 * The origins whose pages may show the hosted page of this session in a
 * frame: those its app registered (docs/hosted-flow.md "The hosted verification page").
 * None for an unknown or expired session.
 */
export async function frameOriginsOfSession(sessionId: string, at: Date = now()): Promise<string[]> {
  if (!UUID_PATTERN.test(sessionId)) return [];
  const prisma = await db();
  const session = await prisma.session.findUnique({
    where: { id: sessionId },
    select: { status: true, expiresAt: true, app: { select: { frameOrigins: true } } },
  });
  if (!session || hasSessionExpired(session, at)) return [];
  return session.app.frameOrigins;
}
