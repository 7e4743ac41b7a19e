import { createHash } from "node:crypto";
import { openBytes, openJson, sealBytes } from "@/lib/crypto/encryption";
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";

/**
 * What a session keeps between its steps until the decision (README "Image
 * retention"): the document images and the best liveness frame for a
 * reviewer, the portrait and selfie face templates for face match, and the
 * document fields. All sealed with AES-256-GCM under ENCRYPTION_KEY; only a
 * SHA-256 of each input is kept in the clear (the checks' evidence cites it).
 * Deleted when the session reaches a terminal state.
 */
export type ArtifactKind =
  | "document_front"
  | "document_back"
  | "selfie"
  | "portrait_template"
  | "selfie_template"
  /** Account recovery: the member's enrolled face, what the selfie is matched against (lib/org/recovery/). */
  | "enrolled_template"
  | "document_fields"
  /** The licence a passed credential check found, with how it was looked up (lib/credentials/run-credential-check.ts). */
  | "licence_record"
  /** Every frame of a liveness burst that went to review, in order (1-based), for the reviewer who settles it. */
  | LivenessFrameKind;

/** At most 8 frames in a burst (lib/liveness/judge-burst.ts). */
export type LivenessFrameKind = `liveness_frame_${number}`;
export const LIVENESS_FRAME_PREFIX = "liveness_frame_";
export const livenessFrameKind = (n: number): LivenessFrameKind => `${LIVENESS_FRAME_PREFIX}${n}`;
export const isLivenessFrameKind = (kind: string): kind is LivenessFrameKind => /^liveness_frame_[1-9]$/.test(kind);

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Saves (or replaces) one artifact; in `tx` when given. */
export async function saveArtifact(sessionId: string, kind: ArtifactKind, bytes: Uint8Array, contentType: string, tx?: Tx) {
  const prisma = tx ?? (await db());
  const values = { contentType, sha256: sha256Hex(bytes), sealed: sealBytes(bytes), createdAt: now() };
  await prisma.sessionArtifact.upsert({
    where: { sessionId_kind: { sessionId, kind } },
    create: { sessionId, kind, ...values },
    update: values,
  });
}

export function saveJsonArtifact(sessionId: string, kind: ArtifactKind, value: unknown, tx?: Tx) {
  return saveArtifact(sessionId, kind, Buffer.from(JSON.stringify(value), "utf8"), "application/json", tx);
}

async function findArtifact(sessionId: string, kind: ArtifactKind, tx?: Tx) {
  const prisma = tx ?? (await db());
  return prisma.sessionArtifact.findUnique({ where: { sessionId_kind: { sessionId, kind } } });
}

export async function loadArtifact(sessionId: string, kind: ArtifactKind): Promise<Buffer | null> {
  const row = await findArtifact(sessionId, kind);
  return row ? openBytes(row.sealed) : null;
}

/** One JSON artifact, opened; in `tx` when given. */
export async function loadJsonArtifact<T>(sessionId: string, kind: ArtifactKind, tx?: Tx): Promise<T | null> {
  const row = await findArtifact(sessionId, kind, tx);
  return row ? openJson<T>(row.sealed) : null;
}

/**
 * The frames of the session's last liveness burst, kept only when it went to
 * review (a person must look at them to settle it); any earlier burst's
 * frames go, so a retake that passes keeps none. One transaction.
 */
export async function keepLivenessFrames(sessionId: string, frames: ReadonlyArray<{ bytes: Uint8Array; type?: string }>) {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    await tx.sessionArtifact.deleteMany({ where: { sessionId, kind: { startsWith: LIVENESS_FRAME_PREFIX } } });
    for (const [i, frame] of frames.entries()) await saveArtifact(sessionId, livenessFrameKind(i + 1), frame.bytes, frame.type || "image/jpeg", tx);
  });
}

/**
 * Retention at a terminal state: everything goes. (An approved session bound
 * to an account has saved its proofs to the account first: lib/identity/proofs.ts.)
 */
export async function purgeArtifacts(tx: Tx, session: { id: string }) {
  await tx.sessionArtifact.deleteMany({ where: { sessionId: session.id } });
  await tx.livenessChallenge.deleteMany({ where: { sessionId: session.id } });
}
