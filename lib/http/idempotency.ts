import { createHash } from "node:crypto";
import { decryptString, encryptString } from "@/lib/crypto/encryption";
import { db, type Tx } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { now } from "@/lib/clock";
import { env } from "@/lib/config/env";
import { logger, describeError } from "@/lib/log/logger";
import { ApiError } from "./api-error";

/**
 * Spec 8 `Idempotency-Key` on POST, the protocol Stripe uses:
 * - the first request with a key runs; its response (status and body) is
 *   stored and replayed for 24 hours to a retry with the same key and body;
 * - the same key with a different body (or endpoint) -> 422 `idempotency_key_reused`;
 * - a retry while the first is still running -> 409 `idempotency_in_progress`;
 * - a request that fails validation, or hits a server error, stores nothing,
 *   so the key can be retried.
 * A unique (scope, key) row decides which of concurrent duplicates runs: the
 * others never execute. The claim is a lease (`IDEMPOTENCY_CLAIM_MS`, 60 s)
 * renewed every third of it while the request runs (renewIdempotencyClaim),
 * so a slow request (a queued vision pool) keeps it and a retry gets 409
 * however long it takes; a claim whose process died (renewals stop) is
 * taken over once its lease lapses. A stored response can hold secrets (a session's `session_token`,
 * shown once), so it is sealed with AES-256-GCM (lib/crypto/encryption.ts)
 * and opened only to replay it.
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** The claim's lease, read per claim (tests shorten it). */
const claimMs = () => env().IDEMPOTENCY_CLAIM_MS;
const MAX_KEY_LENGTH = 255;

export type IdempotencyClaim =
  | { kind: "run"; recordId: string }
  | { kind: "replay"; status: number; body: string };

export function fingerprint(method: string, path: string, rawBody: string): string {
  return createHash("sha256").update(`${method} ${path}\n${rawBody}`).digest("hex");
}

export function validateIdempotencyKey(key: string): string {
  const trimmed = key.trim();
  if (!trimmed || trimmed.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(trimmed)) {
    throw new ApiError("invalid_request", {
      message: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`,
      data: { errors: { "Idempotency-Key": ["Invalid idempotency key"] } },
    });
  }
  return trimmed;
}

export async function claimIdempotencyKey(input: {
  scope: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}): Promise<IdempotencyClaim> {
  const prisma = await db();
  for (let attempt = 0; attempt < 3; attempt++) {
    const at = now();
    try {
      const record = await prisma.idempotencyRecord.create({
        data: {
          scope: input.scope,
          key: input.key,
          method: input.method,
          path: input.path,
          requestHash: input.requestHash,
          lockedUntil: new Date(at.getTime() + claimMs()),
          expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS),
        },
      });
      return { kind: "run", recordId: record.id };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const existing = await prisma.idempotencyRecord.findUnique({
      where: { scope_key: { scope: input.scope, key: input.key } },
    });
    if (!existing) continue; // released meanwhile: try to claim again
    if (existing.expiresAt <= at) {
      await prisma.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: { lte: at } } });
      continue;
    }
    if (existing.requestHash !== input.requestHash) {
      throw new ApiError("idempotency_key_reused", {
        message: "This Idempotency-Key was already used with a different request body or endpoint",
      });
    }
    if (existing.state === "completed" && existing.responseStatus !== null && existing.responseBody !== null) {
      return { kind: "replay", status: existing.responseStatus, body: openStoredResponse(existing.responseBody) };
    }
    if (existing.lockedUntil > at) {
      // Retry-After: when the claim can be taken over if its process died (a
      // crash, or a database outage that kept it from releasing the claim).
      const seconds = Math.max(1, Math.min(5, Math.ceil((existing.lockedUntil.getTime() - at.getTime()) / 1000)));
      throw new ApiError("idempotency_in_progress", {
        message: "A request with this Idempotency-Key is still being processed; retry shortly",
        headers: { "Retry-After": String(seconds) },
      });
    }
    // The first attempt's process died mid-request: take the claim over.
    const taken = await prisma.idempotencyRecord.updateMany({
      where: { id: existing.id, state: "in_progress", lockedUntil: { lte: at } },
      data: { lockedUntil: new Date(at.getTime() + claimMs()) },
    });
    if (taken.count === 1) return { kind: "run", recordId: existing.id };
    throw new ApiError("idempotency_in_progress");
  }
  throw new ApiError("idempotency_in_progress");
}

/**
 * Keeps a claim while its request runs: every third of the lease, extends
 * `locked_until` by a lease (only while the claim is still in progress).
 * A failed renewal is logged and retried at the next beat; the claim then
 * lapses only if renewals keep failing for a whole lease. Returns the stop
 * function, to call when the request ends (in a finally).
 */
export function renewIdempotencyClaim(recordId: string): () => void {
  const lease = claimMs();
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renewing.then(async () => {
      try {
        const prisma = await db();
        await prisma.idempotencyRecord.updateMany({
          where: { id: recordId, state: "in_progress" },
          data: { lockedUntil: new Date(now().getTime() + lease) },
        });
      } catch (err) {
        logger.warn("idempotency claim renewal failed", { recordId, ...describeError(err) });
      }
    });
  }, Math.max(100, Math.floor(lease / 3)));
  timer.unref?.();
  return () => clearInterval(timer);
}

/** Records written before responses were sealed hold JSON in clear (they expire within 24 hours). */
function openStoredResponse(stored: string): string {
  return stored.startsWith("{") ? stored : decryptString(stored);
}

export async function completeIdempotencyKey(recordId: string, status: number, body: string) {
  await completeIdempotencyKeyIn(await db(), recordId, status, body);
}

/**
 * The same, inside the transaction of the request's effect: the effect and
 * the answer a retry replays commit together, so a crash or a database
 * outage between them cannot leave a claim whose retry runs the effect twice.
 */
export async function completeIdempotencyKeyIn(tx: Pick<Tx, "idempotencyRecord">, recordId: string, status: number, body: string) {
  await tx.idempotencyRecord.update({
    where: { id: recordId },
    data: { state: "completed", responseStatus: status, responseBody: encryptString(body) },
  });
}

export async function releaseIdempotencyKey(recordId: string) {
  const prisma = await db();
  await prisma.idempotencyRecord.deleteMany({ where: { id: recordId, state: "in_progress" } });
}

/** Deletes records past their 24-hour life (a periodic job, lib/server/scheduled-jobs.ts). */
export async function purgeExpiredIdempotencyRecords(at: Date = now()): Promise<number> {
  const prisma = await db();
  const { count } = await prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: at } } });
  return count;
}
