import type { RanStatus } from "@/lib/contract-vocabulary";
import type { Session } from "@/generated/prisma/client";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { closestFace, enrollFace } from "@/lib/faces/gallery";
import { roundScore, type FaceTemplate } from "@/lib/faces/templates";
import type { WorkflowSnapshot } from "@/lib/sessions/present";
import { recordCheckResult } from "@/lib/sessions/record-check";
import { processSlot } from "@/lib/process-slots";
import { lockNameForTransaction } from "@/lib/db/advisory-locks";

/**
 * face_uniqueness: 1:N search of the selfie against the app's enrolled
 * faces. A face at or above `decline_threshold` fails the check
 * (`duplicate_face`) and names the existing `svc_uuid`; from `threshold` up
 * to it the check goes to review (`possible_duplicate_face`, the face is not
 * enrolled): at a large gallery strangers reach `threshold` by chance.
 * Otherwise the face is enrolled and its new `svc_uuid` returned. A retry of
 * the same session replaces its own enrollment instead of matching it.
 * Search and enrolment run one at a time per app (serialisedPerApp), so two
 * sessions of one face at the same moment cannot both find the gallery
 * without the other and both enrol: one is unique, the other its duplicate.
 */
export type UniquenessOutcome = "unique" | "possible_duplicate" | "duplicate";

/** The rule: how close the nearest enrolled face is decides. */
export function uniquenessOutcome(similarity: number | null, settings: { threshold: number; decline_threshold: number }): UniquenessOutcome {
  if (similarity === null || similarity < settings.threshold) return "unique";
  return similarity >= settings.decline_threshold ? "duplicate" : "possible_duplicate";
}
/** The advisory lock class of face uniqueness (the second key is the app's). */
const FACE_UNIQUENESS_LOCK = 0x46_55_4e_51; // "FUNQ"
/**
 * Per app, the tail of this process's queue of searches-and-enrolments. A
 * process slot (lib/process-slots.ts), not a module variable: the selfie and
 * the liveness routes are separate Next chunks, each with its own copy of
 * this module, and on the embedded database this queue is the only lock.
 */
const appQueuesSlot = processSlot<Map<string, Promise<unknown>>>("faceUniquenessQueues");
const appQueues = () => (appQueuesSlot.value ??= new Map());

/**
 * Runs `work` (search then enrol) alone for the app: queued behind the
 * app's other searches in this process, then, on PostgreSQL, under a
 * transaction-level advisory lock on the app (pg_advisory_xact_lock) held
 * by a transaction of its own, so other processes on the same database
 * wait too; the lock goes with that transaction, even if the process dies.
 * The in-process queue comes first so that waiting requests hold no pooled
 * connection (`work` needs connections of its own), and at most half the
 * pool (DATABASE_POOL_SIZE) holds lock transactions at once, across apps, so
 * `work` always finds a connection. The embedded PGlite has one database
 * session, which an open transaction holds for itself: there the queue of
 * the one process that hosts it is the lock.
 */
export async function serialisedPerApp<T>(appId: string, work: () => Promise<T>): Promise<T> {
  const queues = appQueues();
  const before = queues.get(appId) ?? Promise.resolve();
  const run = before.then(() => underDatabaseLock(appId, work));
  const tail = run.catch(() => undefined);
  queues.set(appId, tail);
  try {
    return await run;
  } finally {
    if (queues.get(appId) === tail) queues.delete(appId);
  }
}

async function underDatabaseLock<T>(appId: string, work: () => Promise<T>): Promise<T> {
  const config = env();
  if (!config.DATABASE_URL || config.DATABASE_POOL_SIZE < 2) return work();
  await lockSlot(Math.floor(config.DATABASE_POOL_SIZE / 2));
  try {
    const prisma = await db();
    return await prisma.$transaction(
      async (tx) => {
        await lockNameForTransaction(tx, FACE_UNIQUENESS_LOCK, appId);
        return work();
      },
      { maxWait: 15_000, timeout: 120_000 },
    );
  } finally {
    freeLockSlot();
  }
}

/** Lock transactions open in this process, and the requests waiting for a slot (one count for every chunk: a process slot). */
const lockSlotsSlot = processSlot<{ holders: number; waiters: Array<() => void> }>("faceUniquenessLockSlots");
const lockSlots = () => (lockSlotsSlot.value ??= { holders: 0, waiters: [] });

async function lockSlot(limit: number): Promise<void> {
  const slots = lockSlots();
  if (slots.holders < limit) {
    slots.holders++;
    return;
  }
  await new Promise<void>((resolve) => slots.waiters.push(resolve)); // the slot is handed over by freeLockSlot
}

function freeLockSlot() {
  const slots = lockSlots();
  const next = slots.waiters.shift();
  if (next) next();
  else slots.holders--;
}

export async function runFaceUniqueness(session: Session, selfie: FaceTemplate) {
  const settings = (session.workflowSnapshot as WorkflowSnapshot).settings.face_uniqueness;
  if (!settings || !session.features.includes("face_uniqueness")) return null;
  const started = performance.now();
  const { match, outcome, svcUuid } = await serialisedPerApp(session.appId, async () => {
    const match = await closestFace(session.appId, selfie, session.id, settings.threshold);
    const outcome = uniquenessOutcome(match?.similarity ?? null, settings);
    const svcUuid = outcome !== "unique" ? match!.svc_uuid : await enrollFace(session.appId, session.id, selfie);
    return { match, outcome, svcUuid };
  });
  const duplicate = outcome !== "unique";
  const similarity = match ? roundScore(match.similarity) : null;
  const thresholds = { threshold: settings.threshold, decline_threshold: settings.decline_threshold };
  const data = duplicate ? { svc_uuid: svcUuid, duplicate: true, similarity, ...thresholds } : { svc_uuid: svcUuid, duplicate: false, enrolled: true, ...thresholds };
  const error =
    outcome === "duplicate"
      ? { code: "duplicate_face", message: `This face is already enrolled for this project as ${svcUuid}` }
      : outcome === "possible_duplicate"
        ? { code: "possible_duplicate_face", message: `This face may already be enrolled for this project as ${svcUuid}; a person will review it` }
        : null;
  const status: RanStatus = outcome === "duplicate" ? "failed" : outcome === "possible_duplicate" ? "review" : "passed";
  await recordCheckResult({
    sessionId: session.id,
    type: "face_uniqueness",
    status,
    score: similarity,
    data,
    error,
    evidence: {
      selfie_sha256: selfie.source_sha256,
      model: selfie.model,
      closest: match ? { svc_uuid: match.svc_uuid, similarity } : null,
      search_ms: Math.round(performance.now() - started),
    },
  });
  return { type: "face_uniqueness" as const, status, data, error };
}
