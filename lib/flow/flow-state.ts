import type { Session } from "@/generated/prisma/client";
import { isFinalFailure } from "@/lib/checks/stop-at-decisive-failure";
import { db } from "@/lib/db/client";
import { BURST_FRAMES, livenessAttemptsUsed } from "@/lib/liveness/challenges";
import type { WorkflowSnapshot } from "@/lib/sessions/present";
import { OPEN_STATUSES } from "@/lib/sessions/statuses";
import { returnUrlWithHint } from "./return-url";
import { wasReused } from "@/lib/identity/proofs";
import type { Feature } from "@/lib/workflows/schemas";
import { CHECK_STATUSES, storedFeature, storedSessionStatus, vocabularyValue } from "@/lib/contract-vocabulary";

/**
 * What the page asks of the person for each step (`input`, with the route it
 * posts to) or `derived` for checks computed from other steps (face match
 * and age from the document and the liveness burst).
 */
function stepInput(type: Feature, snapshot: WorkflowSnapshot, features: readonly string[]) {
  const settings = snapshot.settings;
  switch (type) {
    case "id_verification":
      return { input: { endpoint: "/api/v2/document", document_types: settings.id_verification?.allowed_documents ?? [] } } as const;
    case "liveness":
      return {
        input: {
          challenge_endpoint: "/api/v2/antispoof/challenge",
          endpoint: "/api/v2/antispoof",
          frames: { min: BURST_FRAMES.min, max: BURST_FRAMES.max, recommended: settings.liveness?.frames ?? 5 },
          max_attempts: settings.liveness?.max_attempts ?? 3,
        },
      } as const;
    case "location":
      return { input: { endpoint: "/api/v2/location" } } as const;
    case "credential":
      return {
        input: {
          endpoint: "/api/v2/credential",
          /** Discovery narrowed to the licence types this workflow accepts: then `/{state}/providers`. */
          states_endpoint: "/api/v2/flow/credential/states",
          license_types: settings.credential?.license_types ?? [],
          max_attempts: settings.credential?.max_attempts ?? 5,
        },
      } as const;
    case "face_uniqueness":
      return features.includes("liveness") ? ({ derived: true } as const) : ({ input: { endpoint: "/api/v2/face-uniqueness" } } as const);
    case "face_match":
    case "age":
      return { derived: true } as const;
    default: {
      const unknownFeature: never = type;
      throw new Error(`no hosted step for feature ${String(unknownFeature)}`);
    }
  }
}

/**
 * The check whose failure decided a DECLINED session before the flow ended
 * (lib/checks/stop-at-decisive-failure.ts), in workflow order: the hosted
 * page explains it in words.
 */
function stoppedBy(session: Session, checks: Array<{ type: string; status: string; error: unknown }>) {
  if (session.status !== "DECLINED") return null;
  const order = (type: string) => session.features.indexOf(type);
  const decisive = checks.filter(isFinalFailure).sort((a, b) => order(a.type) - order(b.type))[0];
  if (!decisive) return null;
  const code = (decisive.error as { code?: unknown } | null)?.code;
  return { type: storedFeature(decisive.type), code: typeof code === "string" ? code : "failed" };
}

/**
 * GET /api/v2/flow: what the hosted page needs to render the session: who
 * asks (the app's name), the steps in order with their progress, and where
 * to return. No personal data.
 */
export async function flowState(session: Session) {
  const prisma = await db();
  const [app, checks, livenessAttempts] = await Promise.all([
    prisma.app.findUniqueOrThrow({ where: { id: session.appId }, select: { name: true, logo: true } }),
    prisma.checkResult.findMany({ where: { sessionId: session.id }, select: { type: true, status: true, attempts: true, data: true, error: true } }),
    session.features.includes("liveness") ? livenessAttemptsUsed(prisma, session.id) : 0,
  ]);
  const byType = new Map(checks.map((c) => [c.type, c]));
  // A liveness attempt is a challenge issued, used or not (lib/liveness/challenges.ts).
  const attemptsOf = (type: string) => (type === "liveness" ? livenessAttempts : (byType.get(type)?.attempts ?? 0));
  const snapshot = session.workflowSnapshot as WorkflowSnapshot;
  const isOpen = (OPEN_STATUSES as readonly string[]).includes(session.status);
  const metadata = session.metadata as Record<string, unknown>;
  return {
    session_id: session.id,
    status: storedSessionStatus(session.status),
    app: { name: app.name, logo: app.logo },
    workflow: { name: snapshot.name },
    steps: session.features.map((type) => ({
      type: storedFeature(type),
      status: vocabularyValue(CHECK_STATUSES, byType.get(type)?.status ?? "pending", "check status"),
      attempts: attemptsOf(type),
      /** Done already: taken from the proofs of the person's account (lib/identity/reuse.ts). */
      reused: wasReused(byType.get(type)?.data),
      ...stepInput(type as Feature, snapshot, session.features),
    })),
    location: { expected_point: metadata.expected_lat !== undefined },
    redirect_url: session.redirectUrl,
    /** Once the session is over (decided, in review, expired): where to send the person, with the status hint. */
    return_url: isOpen ? null : returnUrlWithHint(session),
    expires_at: session.expiresAt.toISOString(),
    stopped_by: stoppedBy(session, checks),
  };
}
