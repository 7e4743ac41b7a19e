import { now } from "@/lib/clock";
import { db, sqlPool, type Tx } from "@/lib/db/client";
import { normalise, type FaceTemplate } from "./templates";

/**
 * The face-uniqueness gallery (spec 4.3): faces (`face_identities`, id =
 * public `svc_uuid`) enrolled per project (`face_enrollments`). The 1:N
 * search compares a template with the app's active enrollments only: as a
 * pgvector `<=>` scan when the `embedding_vec` column exists
 * (lib/faces/vector-column.ts), else as a dot product of the unit-length
 * `real[]` templates in plain SQL. Both are exact (no approximate index).
 */
export type GalleryMatch = { svc_uuid: string; similarity: number };

const globalForVectors = globalThis as unknown as { __svcFaceVectors?: Promise<boolean> };

function vectorsEnabled(): Promise<boolean> {
  globalForVectors.__svcFaceVectors ??= sqlPool().then(async (pool) => {
    const { rows } = await pool.query(
      "SELECT 1 FROM information_schema.columns WHERE table_name = 'face_identities' AND column_name = 'embedding_vec'",
    );
    return rows.length > 0;
  });
  return globalForVectors.__svcFaceVectors;
}

/** The closest active face of this app, excluding the enrollment of `exceptSessionId` (a retry of the same session). */
export async function closestFace(appId: string, template: FaceTemplate, exceptSessionId: string): Promise<GalleryMatch | null> {
  const pool = await sqlPool();
  const probe = normalise(template.embedding);
  const { rows } = (await vectorsEnabled())
    ? await pool.query<{ id: string; similarity: number }>(
        `SELECT f.id, 1 - (f.embedding_vec <=> $1::vector) AS similarity
           FROM face_identities f
          WHERE EXISTS (SELECT 1 FROM face_enrollments e
                         WHERE e.face_id = f.id AND e.app_id = $2 AND e.status = 'active'
                           AND e.session_id IS DISTINCT FROM $3)
          ORDER BY f.embedding_vec <=> $1::vector
          LIMIT 1`,
        [`[${probe.join(",")}]`, appId, exceptSessionId],
      )
    : await pool.query<{ id: string; similarity: number }>(
        `SELECT f.id, (SELECT sum(a * b) FROM unnest(f.embedding, $1::real[]) AS t(a, b)) AS similarity
           FROM face_identities f
          WHERE EXISTS (SELECT 1 FROM face_enrollments e
                         WHERE e.face_id = f.id AND e.app_id = $2 AND e.status = 'active'
                           AND e.session_id IS DISTINCT FROM $3)
          ORDER BY similarity DESC
          LIMIT 1`,
        [probe, appId, exceptSessionId],
      );
  const best = rows[0];
  return best ? { svc_uuid: best.id, similarity: Number(best.similarity) } : null;
}

/**
 * Enrolls the session's face for the app: a new shadow identity (no
 * account), or, when this session already enrolled one (a retried step), that
 * identity with its template replaced. Returns the `svc_uuid`.
 */
export async function enrollFace(appId: string, sessionId: string, template: FaceTemplate): Promise<string> {
  const prisma = await db();
  const embedding = normalise(template.embedding);
  const faceId = await prisma.$transaction(async (tx) => {
    const existing = await tx.faceEnrollment.findFirst({ where: { appId, sessionId, status: "active" } });
    if (existing) {
      await tx.faceIdentity.update({ where: { id: existing.faceId }, data: { embedding, model: template.model } });
      return existing.faceId;
    }
    const face = await tx.faceIdentity.create({ data: { embedding, model: template.model } });
    await tx.faceEnrollment.create({ data: { faceId: face.id, appId, sessionId } });
    return face.id;
  });
  if (await vectorsEnabled()) {
    const pool = await sqlPool();
    await pool.query("UPDATE face_identities SET embedding_vec = embedding::vector WHERE id = $1", [faceId]);
  }
  return faceId;
}

/**
 * DELETE /api/v2/face-uniqueness/{svc_uuid}: unlinks the app's active
 * enrollment; a shadow identity left with no active enrollment anywhere is
 * hard-deleted (template and vector). Null when there is no active
 * enrollment of this face for the app.
 */
export async function unlinkFace(appId: string, faceId: string): Promise<{ deleted: boolean } | null> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const [face] = await tx.$queryRaw<Array<{ id: string; account_id: string | null }>>`
      SELECT id, account_id FROM face_identities WHERE id = ${faceId} FOR UPDATE`;
    if (!face) return null;
    const unlinked = await tx.faceEnrollment.updateMany({
      where: { faceId, appId, status: "active" },
      data: { status: "unlinked", unlinkedAt: now() },
    });
    if (unlinked.count === 0) return null;
    const remaining = await tx.faceEnrollment.count({ where: { faceId, status: "active" } });
    if (face.account_id === null && remaining === 0) {
      await tx.faceIdentity.delete({ where: { id: faceId } });
      return { deleted: true };
    }
    return { deleted: false };
  });
}

/**
 * A session that ends without approval (DECLINED, EXPIRED, ABANDONED) gives
 * back the faces it enrolled: otherwise a person who gave up once would be
 * a "duplicate" of themselves on the next try. Its shadow identities go
 * (template and vector); an identity enrolled elsewhere only loses this
 * enrollment. Runs in the transaction that ends the session.
 */
export async function releaseSessionFaces(tx: Tx, sessionId: string) {
  const enrolled = await tx.faceEnrollment.findMany({ where: { sessionId, status: "active" }, select: { faceId: true } });
  if (enrolled.length === 0) return;
  const faceIds = enrolled.map((e) => e.faceId);
  await tx.faceEnrollment.updateMany({ where: { sessionId, status: "active" }, data: { status: "unlinked", unlinkedAt: now() } });
  await tx.faceIdentity.deleteMany({
    where: { id: { in: faceIds }, accountId: null, enrollments: { none: { status: "active" } } },
  });
}
