import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import { createHmac } from "node:crypto";
import { derivedKey } from "@/lib/crypto/encryption-key";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { prepareQuery, runPrepared, typedSql } from "@/lib/db/typed-sql";

/**
 * Face sign-in's failed-scan count and soft lock, per address: keyed by an
 * HMAC of the normalised email (table `face_sign_in_throttles`), so an
 * address without an account is counted and locked exactly like one with
 * an account, and the answers never tell them apart.
 *
 * A scan is RESERVED before it is judged: counted as a failure up front, in
 * one statement that refuses while the address is locked or while as many
 * scans as the limit are already counted, so scans sent in parallel cannot
 * get past the limit. A success resets the count (unless a parallel failure
 * locked the address meanwhile: then the success is refused too); a picture
 * too unclear to judge gives its scan back.
 */
export const FACE_SIGN_IN_LIMITS = ABUSE_LIMITS.faceSignIn;

export function throttleKey(email: string): string {
  return createHmac("sha256", derivedKey("svc face sign-in throttle")).update(email.trim().toLowerCase()).digest("hex");
}

function lockedError(until: Date, at: Date) {
  const seconds = Math.max(1, Math.ceil((until.getTime() - at.getTime()) / 1000));
  return new ApiError("verification_soft_locked", {
    message: `Too many failed face scans: face sign-in is locked for ${Math.ceil(seconds / 60)} more minute(s); sign in with an emailed code instead`,
    data: { locked_until: until.toISOString() },
    headers: { "Retry-After": String(seconds) },
  });
}

/** 423 while face sign-in is locked for the address. */
export async function assertNotLocked(key: string, at: Date) {
  const prisma = await db();
  const row = await prisma.faceSignInThrottle.findUnique({ where: { emailHash: key } });
  if (row?.lockedUntil && row.lockedUntil > at) throw lockedError(row.lockedUntil, at);
}

/**
 * One more scan counted for the address, unless it is locked or already at
 * the limit (then no row: the caller says which): a new address starts at 1;
 * a lock that has passed is lifted by the count.
 */
const reserve = prepareQuery("face_sign_in_reserve_scan", (v: { key: string; at: Date; limit: number }) =>
  typedSql
    .insertInto("face_sign_in_throttles")
    .values({ email_hash: v.key, failures: 1, updated_at: v.at })
    .onConflict((oc) =>
      oc
        .column("email_hash")
        .doUpdateSet((eb) => ({ failures: eb("face_sign_in_throttles.failures", "+", 1), locked_until: null, updated_at: v.at }))
        .where((eb) => eb.and([eb.or([eb("face_sign_in_throttles.locked_until", "is", null), eb("face_sign_in_throttles.locked_until", "<=", v.at)]), eb("face_sign_in_throttles.failures", "<", v.limit)])),
    )
    .returning("failures"),
);

/** A reserved scan given back, never below 0, unless the address got locked meanwhile. */
const release = prepareQuery("face_sign_in_release_scan", (v: { key: string }) =>
  typedSql
    .updateTable("face_sign_in_throttles")
    .set((eb) => ({ failures: eb.fn("greatest", [eb("failures", "-", 1), eb.lit(0)]) }))
    .where("email_hash", "=", v.key)
    .where("locked_until", "is", null),
);

/** Counts one scan as failed before it is judged; 423 while locked, 429 when the limit's worth of scans is already counted. Returns the count. */
export async function reserveScan(key: string, at: Date): Promise<number> {
  const rows = await runPrepared(reserve, { key, at, limit: FACE_SIGN_IN_LIMITS.failuresBeforeLock });
  if (rows[0]) return Number(rows[0].failures);
  await assertNotLocked(key, at);
  throw new ApiError("too_many_attempts", { message: "Too many face scans at once for this address; wait for them to finish, or sign in with an emailed code" });
}

/** Gives a reserved scan back (the picture could not be judged). */
export async function releaseScan(key: string) {
  await runPrepared(release, { key });
}

/** A judged scan failed: the one that reached the limit locks face sign-in (429); before that, nothing to do (it was counted). */
export async function lockIfLimitReached(key: string, failures: number, at: Date) {
  if (failures < FACE_SIGN_IN_LIMITS.failuresBeforeLock) return;
  const until = new Date(at.getTime() + FACE_SIGN_IN_LIMITS.lockSeconds * 1000);
  const prisma = await db();
  await prisma.faceSignInThrottle.update({ where: { emailHash: key }, data: { failures: 0, lockedUntil: until } });
  throw new ApiError("too_many_attempts", {
    message: `Too many failed face scans: face sign-in is locked for ${FACE_SIGN_IN_LIMITS.lockSeconds / 60} minutes; sign in with an emailed code instead`,
    data: { locked_until: until.toISOString() },
    headers: { "Retry-After": String(FACE_SIGN_IN_LIMITS.lockSeconds) },
  });
}

/** A judged scan matched: the count starts again; refused (423) if a parallel failure locked the address meanwhile. */
export async function scanSucceeded(key: string, at: Date) {
  const prisma = await db();
  const reset = await prisma.faceSignInThrottle.updateMany({
    where: { emailHash: key, OR: [{ lockedUntil: null }, { lockedUntil: { lte: at } }] },
    data: { failures: 0, lockedUntil: null },
  });
  if (reset.count === 0) await assertNotLocked(key, at);
}
