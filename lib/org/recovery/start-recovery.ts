import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { App } from "@/generated/prisma/client";
import { z } from "zod";
import { assertWalletCoversSession } from "@/lib/billing/session-cover";
import { now } from "@/lib/clock";
import { hashSecret, randomToken } from "@/lib/crypto/secrets";
import { db, type Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { consumeRateLimit } from "@/lib/http/rate-limit";
import { parseOrThrow } from "@/lib/http/validation";
import { readProfile } from "@/lib/identity/profile";
import { enqueueJobs, jobQueue } from "@/lib/jobs/queue";
import { saveJsonArtifact } from "@/lib/artifacts/artifacts";
import { hostedUrl } from "@/lib/sessions/create-session";
import { returnUrlProblem } from "@/lib/tenancy/schemas";
import { mailAvailable } from "../invitations";
import { recoveryEmailJob } from "./recovery-email";
import { RECOVERY_FEATURES, RECOVERY_SESSION_SECONDS, RECOVERY_VARIANTS, recoverySettings, recoveryWorkflow, type RecoveryVariant } from "./recovery-workflow";

/**
 * POST /api/sdk/recovery/session (spec 1.5, 2.11, 4.6; README "Account
 * recovery"): a locked-out member proves their face again. Eligible only
 * for an `active` member of the caller's organization, bound to an account
 * (`svc_id`) that has a valid enrolled face; the app must have an active
 * webhook (the outcome is delivered there).
 *
 * NO ENUMERATION. Every answer has the same keys; an ineligible request
 * starts nothing and gets nulls; the wallet is checked before eligibility
 * (a 402 never tells whether someone is eligible); both answers take at
 * least ANSWER_FLOOR_MS, so their timing says nothing either. Limits: 60
 * requests per minute per app, and 5 per hour per (app, svcId) whatever
 * the svcId: both apply the same way to eligible and ineligible requests.
 *
 * The link is the session's hosted URL: returned to the server only
 * (`recoveryUrl`) and always emailed to the member's address on file
 * (`deliverEmail` is ignored), by the background job queue (the job is
 * queued in the session's transaction). `commit`, when given, runs in the
 * transaction of what the request records, eligible or not, with the
 * answer (the Idempotency-Key's stored answer: a retry after a crash replays
 * this answer instead of starting a second recovery session and email).
 */
export const RECOVERY_LIMITS = ABUSE_LIMITS.recoveryStart;
export const ANSWER_FLOOR_MS = 300;

export const RecoveryBody = z
  .object({
    svcId: z.string().trim().optional(),
    svc_id: z.string().trim().optional(),
    variant: z.string().optional(),
    redirectUrl: z.string().optional(),
    redirect_url: z.string().optional(),
    deliverEmail: z.unknown().optional(),
    deliver_email: z.unknown().optional(),
  })
  .strict();

const RecoveryInput = z.object({
  svcId: z.string().uuid({ message: "The member's svc_id (the sub of their ID token)" }),
  variant: z.enum(RECOVERY_VARIANTS, { message: "with_id or without_id" }),
  redirectUrl: z.url({ message: "An absolute URL" }).optional(),
});

export type RecoveryAnswer = {
  eligible: boolean;
  recoveryUrl: string | null;
  emailed: boolean;
  sessionId: string | null;
  status: "NOT_STARTED" | null;
  expiresAt: string | null;
};

const NOT_ELIGIBLE: RecoveryAnswer = { eligible: false, recoveryUrl: null, emailed: false, sessionId: null, status: null, expiresAt: null };

function parseRecovery(app: App, body: z.infer<typeof RecoveryBody>) {
  const input = parseOrThrow(
    RecoveryInput,
    { svcId: body.svcId ?? body.svc_id ?? "", variant: body.variant ?? "with_id", redirectUrl: body.redirectUrl ?? body.redirect_url },
    "body",
  );
  // The same rule as a session's redirect_url.
  const returnProblem = input.redirectUrl ? returnUrlProblem(app.environment as "test" | "production", new URL(input.redirectUrl)) : null;
  if (returnProblem) {
    throw new ApiError("invalid_request", { message: `redirectUrl: ${returnProblem}`, data: { errors: { redirectUrl: [returnProblem] } } });
  }
  return input;
}

/** The member and enrolled face recovery needs, or null (no reason given: see NO ENUMERATION). */
async function eligibleMember(app: App, svcId: string) {
  const prisma = await db();
  const member =
    (await prisma.member.findFirst({ where: { organizationId: app.organizationId, svcId, status: "active" } })) ??
    (await prisma.member.findFirst({ where: { organizationId: app.organizationId, svcId }, orderBy: { id: "asc" } }));
  if (!member || member.status !== "active") return { member, face: null };
  const account = await prisma.account.findUnique({ where: { id: svcId }, select: { id: true } });
  if (!account) return { member, face: null };
  const face = (await readProfile(svcId, now())).face;
  return { member, face: face?.state === "valid" ? face.content : null };
}

async function answerAfterFloor<T>(started: number, answer: T): Promise<T> {
  const wait = ANSWER_FLOOR_MS - (performance.now() - started);
  if (wait > 0) await sleep(wait);
  return answer;
}

export async function startRecovery(app: App, body: z.infer<typeof RecoveryBody>, commit?: (tx: Tx, answer: RecoveryAnswer) => Promise<void>): Promise<RecoveryAnswer> {
  const input = parseRecovery(app, body);
  const variant: RecoveryVariant = input.variant;
  await consumeRateLimit("sdk-recovery", app.id, RECOVERY_LIMITS.perAppPerMinute, 60);
  await consumeRateLimit("sdk-recovery-person", `${app.id}:${input.svcId}`, RECOVERY_LIMITS.perPersonPerHour, 3600);
  const prisma = await db();
  const webhooks = await prisma.webhookEndpoint.count({ where: { appId: app.id, active: true, approved: true } });
  if (webhooks === 0) {
    throw new ApiError("invalid_request", { message: "Account recovery delivers its outcome to this app's webhook: add an active webhook first" });
  }
  const wallet = await prisma.wallet.findUnique({ where: { organizationId: app.organizationId }, select: { balanceCents: true } });
  assertWalletCoversSession(wallet?.balanceCents ?? 0, RECOVERY_FEATURES[variant]);

  // What only an eligible request would do first (the queue's start, the workflow's creation) is done for every request.
  const started = performance.now();
  await jobQueue();
  const workflow = await prisma.$transaction((tx) => recoveryWorkflow(tx, app, variant));
  const { member, face } = await eligibleMember(app, input.svcId);
  const at = now();
  if (!member || !face) {
    await prisma.$transaction(async (tx) => {
      await tx.recoveryRequest.create({ data: { organizationId: app.organizationId, appId: app.id, memberId: member?.memberId ?? null, variant, eligible: false, createdAt: at } });
      if (commit) await commit(tx, NOT_ELIGIBLE);
    });
    return answerAfterFloor(started, NOT_ELIGIBLE);
  }

  const token = randomToken("st_", 32);
  const sessionId = randomUUID();
  const expiresAt = new Date(at.getTime() + RECOVERY_SESSION_SECONDS * 1000);
  const recoveryUrl = hostedUrl(sessionId, token);
  const emailed = mailAvailable();
  const answer: RecoveryAnswer = { eligible: true, recoveryUrl, emailed, sessionId, status: "NOT_STARTED", expiresAt: expiresAt.toISOString() };
  await prisma.$transaction(async (tx) => {
    const snapshot = { id: workflow.id, name: workflow.name, features: workflow.features, settings: recoverySettings(workflow), purpose: workflow.purpose };
    await tx.session.create({
      data: {
        id: sessionId,
        appId: app.id,
        workflowId: workflow.id,
        workflowSnapshot: snapshot,
        features: workflow.features,
        status: "NOT_STARTED",
        vendorData: `recovery:${member.memberId}`,
        redirectUrl: input.redirectUrl ?? null,
        sessionTokenHash: hashSecret(token),
        expiresAt,
        createdAt: at,
        updatedAt: at,
      },
    });
    await saveJsonArtifact(sessionId, "enrolled_template", face, tx);
    await tx.recoveryRequest.create({ data: { organizationId: app.organizationId, appId: app.id, memberId: member.memberId, variant, eligible: true, sessionId, createdAt: at } });
    if (emailed) await enqueueJobs([recoveryEmailJob(member.memberId, sessionId, recoveryUrl)], tx);
    if (commit) await commit(tx, answer);
  });
  return answerAfterFloor(started, answer);
}
