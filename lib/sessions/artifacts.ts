import { createHash } from "node:crypto";
import { openBytes, sealBytes } from "@/lib/crypto/encryption";
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
  | "document_fields";

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export async function saveArtifact(sessionId: string, kind: ArtifactKind, bytes: Uint8Array, contentType: string) {
  const prisma = await db();
  const values = { contentType, sha256: sha256Hex(bytes), sealed: sealBytes(bytes), createdAt: now() };
  await prisma.sessionArtifact.upsert({
    where: { sessionId_kind: { sessionId, kind } },
    create: { sessionId, kind, ...values },
    update: values,
  });
}

export function saveJsonArtifact(sessionId: string, kind: ArtifactKind, value: unknown) {
  return saveArtifact(sessionId, kind, Buffer.from(JSON.stringify(value), "utf8"), "application/json");
}

export async function loadArtifact(sessionId: string, kind: ArtifactKind): Promise<Buffer | null> {
  const prisma = await db();
  const row = await prisma.sessionArtifact.findUnique({ where: { sessionId_kind: { sessionId, kind } } });
  return row ? openBytes(row.sealed) : null;
}

export async function loadJsonArtifact<T>(sessionId: string, kind: ArtifactKind): Promise<T | null> {
  const bytes = await loadArtifact(sessionId, kind);
  return bytes ? (JSON.parse(bytes.toString("utf8")) as T) : null;
}

/**
 * Retention at a terminal state: everything goes, except the document fields
 * of a session bound to a user account (they build that account's reusable
 * profile, spec 1.2).
 */
export async function purgeArtifacts(tx: Tx, session: { id: string; accountId: string | null }) {
  await tx.sessionArtifact.deleteMany({
    where: { sessionId: session.id, ...(session.accountId ? { kind: { not: "document_fields" } } : {}) },
  });
  await tx.livenessChallenge.deleteMany({ where: { sessionId: session.id } });
}
