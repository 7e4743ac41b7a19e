import { sql } from "kysely";
import { now } from "@/lib/clock";
import type { Prisma } from "@/generated/prisma/client";
import { db, type Tx } from "@/lib/db/client";
import { prepareQuery, runPrepared, runPreparedInTransaction, typedSql } from "@/lib/db/typed-sql";
import { rescoreFloor, SimilarityEstimator } from "./code-estimate";
import { galleryIndex } from "./gallery-index";
import { openTemplate, sealedSearchCode, sealTemplate } from "./sealed-faces";
import { candidateRadius, searchCode } from "./search-code";
import { normalise, type FaceTemplate } from "./templates";

/**
 * The face-uniqueness gallery (spec 4.3): faces (`face_identities`, id =
 * public `svc_uuid`) enrolled per project (`face_enrollments`). The 1:N
 * search takes its candidates from the in-memory Hamming index
 * (lib/faces/gallery-index.ts), then re-scores each one exactly: the cosine
 * similarity of the stored templates (sealed at rest, opened here:
 * lib/faces/sealed-faces.ts), for faces the database says are still
 * actively enrolled in the app. So the threshold means what it means for an
 * exhaustive search, at a fraction of the cost (README, "Face search at
 * scale").
 */
export type GalleryMatch = { svc_uuid: string; similarity: number };

/** Candidates re-scored at least, so the closest face is reported even far below the threshold. */
const MIN_RESCORED = 3;
/** Candidates read back from the database per query. */
const RESCORE_BATCH = 500;
/**
 * Queries of one re-score in flight at once: reading a template back
 * (detoasting it) is most of a re-score's time, and PostgreSQL does it
 * on as many cores as it has connections.
 */
const RESCORE_PARALLEL = 2;
/** Candidates below which one query does it all. */
const RESCORE_SPLIT_FROM = 100;
/** Faces below the threshold whose enrollment is asked for at once, closest first. */
const BELOW_CHECKED_PER_QUERY = 8;

/** The stored templates of the candidates, by `seq`: the re-score's reads, with no other table touched. */
const candidateTemplates = prepareQuery("face_gallery_candidate_templates", (v: { seqs: string[] }) =>
  typedSql
    .selectFrom(sql<{ seq: string }>`(SELECT unnest(${v.seqs}::bigint[]) AS seq)`.as("c"))
    .innerJoin("face_identities as f", "f.seq", "c.seq")
    .select(["f.id", "f.template_sealed"]),
);

/**
 * Of the given faces, those still actively enrolled in the app. The plan
 * must start from the few faces whatever the statistics say (after a bulk
 * enrollment, before ANALYZE, PostgreSQL believed an app had seven
 * enrollments and read all of them): the enrollment test is a LATERAL
 * subquery with LIMIT 1, which the planner cannot flatten into a join
 * driven by the app's enrollments, so it runs once per face on the
 * (face_id, status) index.
 */
const enrolledFaces = prepareQuery("face_gallery_enrolled", (v: { faceIds: string[]; appId: string; exceptSessionId: string }) =>
  typedSql
    .selectFrom(sql<{ face_id: string }>`(SELECT unnest(${v.faceIds}::text[]) AS face_id)`.as("c"))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom("face_enrollments as e")
          .select(sql`1`.as("one"))
          .whereRef("e.face_id", "=", "c.face_id")
          .where("e.app_id", "=", v.appId)
          .where("e.status", "=", "active")
          .where(sql<boolean>`e.session_id IS DISTINCT FROM ${v.exceptSessionId}`)
          .limit(1)
          .as("enrolled"),
      (join) => join.onTrue(),
    )
    .select("c.face_id"),
);

/**
 * The app's active faces most similar to the template, by exact cosine
 * similarity, most similar first: every face at or above `threshold` that
 * the index finds, and the closest one below it. The enrollment of
 * `exceptSessionId` (a retry of the same session) is left out.
 *
 * Which faces are re-scored is decided by a bound, not a count: every face
 * within the Hamming radius of the threshold (lib/faces/search-code.ts)
 * whose similarity estimated from its code is within RESCORE_MARGIN_SD
 * standard deviations of the estimate's error below the threshold
 * (lib/faces/code-estimate.ts). A crowd of look-alikes just under the
 * threshold makes the search slower, never blind: the old rule (the 100
 * nearest codes) lost true matches among them (README, "Face search at
 * scale").
 */
export async function searchGallery(
  appId: string,
  template: FaceTemplate,
  options: { threshold: number; exceptSessionId: string },
): Promise<GalleryMatch[]> {
  const probe = normalise(template.embedding);
  const estimator = new SimilarityEstimator(probe);
  const candidates = await galleryIndex().candidates(
    appId,
    searchCode(probe),
    candidateRadius(options.threshold),
    estimator,
    rescoreFloor(options.threshold),
    MIN_RESCORED,
  );
  return rescoreCandidates(appId, probe, candidates.map((c) => c.seq), options);
}

/**
 * The exact cosine similarity of the candidates (by `seq`) still actively
 * enrolled in the app, most similar first (`probe` unit length): every one
 * at or above `threshold`, and the closest one below it.
 *
 * The templates are read first and scored; only then is the enrollment
 * asked for, and only of the faces the answer needs (those at or above the
 * threshold, then the closest ones below until one is enrolled). The index
 * follows the database (lib/faces/gallery-index.ts), so nearly every
 * candidate is enrolled; asking for each one's enrollment was a third of a
 * crowded search's reads on the embedded database. The database still has
 * the last word: a face unlinked since the index last looked is never
 * returned.
 */
export async function rescoreCandidates(
  appId: string,
  probe: readonly number[],
  seqs: number[],
  options: { threshold: number; exceptSessionId: string },
): Promise<GalleryMatch[]> {
  const scored = (await readCandidateTemplates(seqs)).map((row) => ({ svc_uuid: row.id, similarity: dot(probe, openTemplate(row.template)) }));
  scored.sort((a, b) => b.similarity - a.similarity || (a.svc_uuid < b.svc_uuid ? -1 : 1));
  const enrolled = async (faces: GalleryMatch[]) => {
    if (faces.length === 0) return [];
    const rows = await runPrepared(enrolledFaces, { faceIds: faces.map((f) => f.svc_uuid), appId, exceptSessionId: options.exceptSessionId });
    const active = new Set(rows.map((r) => r.face_id));
    return faces.filter((f) => active.has(f.svc_uuid));
  };
  // By the comparison, not by position: a score that is NaN is neither.
  const above = scored.filter((f) => f.similarity >= options.threshold);
  const below = scored.filter((f) => f.similarity < options.threshold);
  const matches = await enrolled(above);
  for (let at = 0; at < below.length; at += BELOW_CHECKED_PER_QUERY) {
    const [closestBelow] = await enrolled(below.slice(at, at + BELOW_CHECKED_PER_QUERY));
    if (closestBelow) return [...matches, closestBelow];
  }
  return matches;
}

/** The sealed templates of the faces `seqs` name (a face deleted since is left out), read on up to RESCORE_PARALLEL connections. */
async function readCandidateTemplates(seqs: number[]): Promise<{ id: string; template: Uint8Array }[]> {
  const found: { id: string; template: Uint8Array }[] = [];
  const readPart = async (part: number[]) => {
    for (let at = 0; at < part.length; at += RESCORE_BATCH) {
      const rows = await runPrepared(candidateTemplates, { seqs: part.slice(at, at + RESCORE_BATCH).map(String) });
      // A face stored before templates were sealed has none until the migration runner seals it (lib/faces/sealed-faces.ts).
      for (const row of rows) if (row.template_sealed) found.push({ id: row.id, template: row.template_sealed });
    }
  };
  const parts = Math.max(1, Math.min(RESCORE_PARALLEL, Math.floor(seqs.length / RESCORE_SPLIT_FROM)));
  const size = Math.ceil(seqs.length / parts);
  await Promise.all(Array.from({ length: parts }, (_, k) => readPart(seqs.slice(k * size, (k + 1) * size))));
  return found;
}

/** The closest active face of this app, excluding the enrollment of `exceptSessionId`. */
export async function closestFace(appId: string, template: FaceTemplate, exceptSessionId: string, threshold: number): Promise<GalleryMatch | null> {
  return (await searchGallery(appId, template, { threshold, exceptSessionId }))[0] ?? null;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Enrolls the session's face for the app: a new shadow identity (no
 * account), or, when this session already enrolled one (a retried step), that
 * identity with its template replaced. Returns the `svc_uuid`.
 */
export async function enrollFace(appId: string, sessionId: string, template: FaceTemplate): Promise<string> {
  const prisma = await db();
  const embedding = normalise(template.embedding);
  const sealed = { templateSealed: sealTemplate(embedding), searchCode: sealedSearchCode(embedding) };
  const faceId = await prisma.$transaction(async (tx) => {
    // By session only, filtered here: asked with the app too, PostgreSQL with stale statistics
    // (after a bulk enrollment, before ANALYZE) walked every enrollment of the app instead.
    const existing = (await tx.faceEnrollment.findMany({ where: { sessionId } })).find((e) => e.appId === appId && e.status === "active");
    if (existing) {
      await tx.faceIdentity.update({ where: { id: existing.faceId }, data: { ...sealed, model: template.model } });
      return existing.faceId;
    }
    const face = await tx.faceIdentity.create({ data: { ...sealed, model: template.model } });
    await tx.faceEnrollment.create({ data: { faceId: face.id, appId, sessionId } });
    return face.id;
  });
  return faceId;
}

/** The face, row-locked for the transaction (an unlink). */
const faceForUpdate = prepareQuery("face_identity_for_update", (v: { id: string }) =>
  typedSql.selectFrom("face_identities").select(["id", "account_id"]).where("id", "=", v.id).forUpdate(),
);

/**
 * DELETE /api/v2/face-uniqueness/{svc_uuid}: unlinks the app's active
 * enrollment; a shadow identity left with no active enrollment anywhere is
 * hard-deleted (template and code). Null when there is no active
 * enrollment of this face for the app.
 */
export async function unlinkFace(appId: string, faceId: string): Promise<{ deleted: boolean } | null> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const [face] = await runPreparedInTransaction(tx, faceForUpdate, { id: faceId });
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
 * (template and code); an identity enrolled elsewhere only loses this
 * enrollment. Runs in the transaction that ends the session.
 */
export async function releaseSessionFaces(tx: Tx, sessionId: string) {
  await unlinkEnrollments(tx, { sessionId }, now());
}

/**
 * Unlinks the active enrollments `where` selects (at most `take`) and
 * deletes each shadow identity (no account) left without an active
 * enrollment, template and search code. Returns how many were unlinked.
 */
async function unlinkEnrollments(tx: Tx, where: Prisma.FaceEnrollmentWhereInput, at: Date, take?: number): Promise<number> {
  const due = await tx.faceEnrollment.findMany({ where: { ...where, status: "active" }, select: { id: true, faceId: true }, take });
  if (due.length === 0) return 0;
  await tx.faceEnrollment.updateMany({ where: { id: { in: due.map((e) => e.id) }, status: "active" }, data: { status: "unlinked", unlinkedAt: at } });
  await tx.faceIdentity.deleteMany({
    where: { id: { in: [...new Set(due.map((e) => e.faceId))] }, accountId: null, enrollments: { none: { status: "active" } } },
  });
  return due.length;
}

/** Enrollments unlinked at most per transaction of the retention purge. */
const PURGE_BATCH = 1000;

/**
 * The gallery's retention (FACE_GALLERY_RETENTION_DAYS; README "Secrets and
 * personal data at rest"): every active enrollment made more than
 * `retentionDays` before `at` is unlinked, and a shadow identity (no
 * account) left without an active enrollment is deleted, template and
 * search code, exactly as an unlink through the API does; the search index
 * follows through its change log. An account's face stays with the account
 * (face sign-in) until the account is deleted. A periodic job (lib/server/scheduled-jobs.ts), hourly. Returns
 * how many enrollments were unlinked.
 */
export async function purgeExpiredEnrollments(at: Date, retentionDays: number | undefined): Promise<number> {
  if (!retentionDays) return 0;
  const cutoff = new Date(at.getTime() - retentionDays * 86_400_000);
  const prisma = await db();
  let unlinked = 0;
  for (;;) {
    const batch = await prisma.$transaction((tx) => unlinkEnrollments(tx, { createdAt: { lt: cutoff } }, at, PURGE_BATCH));
    unlinked += batch;
    if (batch < PURGE_BATCH) return unlinked;
  }
}
