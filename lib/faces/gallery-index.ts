import type pg from "pg";
import { sql } from "kysely";
import { db, sqlPool } from "@/lib/db/client";
import { prepareQuery, runPrepared, runPreparedOn, typedSql } from "@/lib/db/typed-sql";
import { readOneSnapshot, snapshotHorizon } from "@/lib/db/snapshot-reads";
import { describeError, logger } from "@/lib/log/logger";
import type { SimilarityEstimator } from "./code-estimate";
import { CodeGalleries, type CodeCandidate, type EstimatedCandidate } from "./code-galleries";
import { CodeArena } from "./hamming-scan";
import { openSearchCode, openTemplate } from "./sealed-faces";
import { searchCode } from "./search-code";
import { processSlot } from "@/lib/process-slots";

/**
 * The 1:N search index of this process: every project's active gallery
 * faces as 128-byte search codes (lib/faces/search-code.ts) in memory, a
 * million faces in 122.5 MiB of codes (about 150 MiB of process memory with
 * the slot arrays: docs/hosted-flow.md "Face search at scale"), scanned exactly in Hamming space by a SIMD
 * kernel (lib/faces/hamming-scan.ts). The database keeps the codes sealed
 * (lib/faces/sealed-faces.ts): they are opened once, as they are loaded,
 * never during a search.
 *
 * The database stays the truth, and every instance follows it:
 *  - triggers append the `seq` of every face whose enrollment or code
 *    changes, or that is deleted, to `face_index_changes`, stamped with the
 *    writing transaction's id (xid8);
 *  - before each search the index re-reads the changes of every transaction
 *    that had not finished at its previous read (`xid >= horizon`, where the
 *    horizon is the previous read's snapshot xmin), and reloads those faces'
 *    current state. A transaction that commits out of order is therefore
 *    never skipped, and a search sees every enrollment and unlink committed
 *    before it started, whichever instance wrote it;
 *  - the decision re-reads each candidate's template and active enrollment
 *    from the database (lib/faces/gallery.ts), so a face unlinked an
 *    instant ago can never be returned.
 * The change log keeps CHANGE_LOG_DAYS (pruneFaceIndexChanges, an hourly
 * job); an index idle for more than half of that reloads in full.
 */
export const CHANGE_LOG_DAYS = 1;
const RELOAD_AFTER_MS = (CHANGE_LOG_DAYS * 86_400_000) / 2;
const LOAD_BATCH = 20_000;

type FaceRow = { seq: string; search_code: Buffer | null; app_id: string };

/** Every face of the index, as it holds them: one row per active enrollment. */
const everyActiveFace = prepareQuery("face_index_load", () =>
  typedSql
    .selectFrom("face_enrollments as e")
    .innerJoin("face_identities as f", "f.id", "e.face_id")
    .select((eb) => [eb.cast<string>("f.seq", "text").as("seq"), "f.search_code", "e.app_id"])
    .where("e.status", "=", "active"),
);

/**
 * The faces touched by transactions at or after `horizon` (their seqs, from
 * the change log the triggers write), and the horizon of this statement's
 * snapshot, to read from next time. `xid`, an xid8, has no Prisma type and
 * so no generated column type: it is named in SQL.
 */
const changesSince = prepareQuery("face_index_changes_since", (v: { horizon: string }) =>
  typedSql.selectNoFrom((eb) => [
    snapshotHorizon().as("horizon"),
    eb
      .fn<string[]>("array", [
        eb
          .selectFrom("face_index_changes")
          .select((eb) => eb.cast<string>("face_seq", "text").as("seq"))
          .distinct()
          .where(sql<boolean>`xid >= ${v.horizon}::xid8`),
      ])
      .as("touched"),
  ]),
);

/** The given faces (by seq) as the index holds them: one row per active enrollment. */
const activeFaces = prepareQuery("face_index_active_faces", (v: { seqs: string[] }) =>
  typedSql
    .selectFrom("face_identities as f")
    .innerJoin("face_enrollments as e", (join) => join.onRef("e.face_id", "=", "f.id").on("e.status", "=", "active"))
    .select((eb) => [eb.cast<string>("f.seq", "text").as("seq"), "f.search_code", "e.app_id"])
    .where((eb) => eb("f.seq", "=", eb.fn.any(sql<string[]>`${v.seqs}::bigint[]`))),
);

/** The sealed templates of the given faces (by seq) that have one. */
const sealedTemplates = prepareQuery("face_index_sealed_templates", (v: { seqs: string[] }) =>
  typedSql
    .selectFrom("face_identities")
    .select((eb) => [eb.cast<string>("seq", "text").as("seq"), "template_sealed"])
    .where((eb) => eb("seq", "=", eb.fn.any(sql<string[]>`${v.seqs}::bigint[]`)))
    .where("template_sealed", "is not", null),
);
/** The last full load: how long it took, and how much of that was opening the sealed codes. */
type LoadStats = { faces: number; ms: number; open_ms: number };

class GalleryIndex {
  /** The codes, once loaded (null: load before searching). */
  private galleries: CodeGalleries | null = null;
  /** Kept across reloads: its WebAssembly memory is reused, never given back. */
  private storage: CodeGalleries | null = null;
  private horizon = "0";
  private syncedAt = 0;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private lastLoad: LoadStats | null = null;

  /** Brings the index up to the database's state at the time of the call. */
  sync(): Promise<void> {
    if (this.queued) return this.queued;
    if (this.running) {
      // A sync in flight may have read its snapshot before this call: run one more after it.
      const queued = this.running.then(() => {
        this.queued = null;
        return this.start();
      });
      this.queued = queued;
      return queued;
    }
    return this.start();
  }

  private start(): Promise<void> {
    const run = (this.galleries && Date.now() - this.syncedAt < RELOAD_AFTER_MS ? this.catchUp() : this.reload()).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  /** The faces of the app to re-score exactly (CodeGalleries.candidates), once the index has caught up with the database. */
  async candidates(appId: string, probe: Uint8Array, radius: number, estimator: SimilarityEstimator, floor: number, atLeast: number): Promise<EstimatedCandidate[]> {
    await this.sync();
    // A full reload queued behind this caller's sync may have begun: wait for it too.
    while (!this.galleries) await this.sync();
    return this.galleries.candidates(appId, probe, radius, estimator, floor, atLeast);
  }

  /** The previous rule (the `limit` nearest codes within `radius`, at least `atLeast`): kept as bench:gallery's baseline. */
  async nearest(appId: string, probe: Uint8Array, radius: number, atLeast: number, limit: number): Promise<CodeCandidate[]> {
    await this.sync();
    while (!this.galleries) await this.sync();
    return this.galleries.nearest(appId, probe, radius, atLeast, limit);
  }

  /** Forgets everything: the next search reloads, as a cold instance would (the benchmark measures that). */
  reset() {
    this.galleries = null;
  }

  stats() {
    return { faces: this.galleries?.size ?? 0, reserved_bytes: this.galleries?.reservedBytes ?? 0, last_load: this.lastLoad };
  }

  /** Everything again, from one consistent snapshot whose xmin becomes the horizon. */
  private async reload() {
    this.galleries = null;
    this.storage ??= new CodeGalleries(await CodeArena.create());
    const galleries = this.storage;
    galleries.clear();
    const started = performance.now();
    const opening = { ms: 0 };
    // Each batch's uncoded faces are read in the same snapshot, on its connection.
    this.horizon = await readOneSnapshot(everyActiveFace, {}, LOAD_BATCH, (rows, connection) => putRows(galleries, rows, connection, opening));
    this.syncedAt = Date.now();
    this.galleries = galleries;
    this.lastLoad = { faces: galleries.size, ms: Math.round(performance.now() - started), open_ms: Math.round(opening.ms) };
    logger.info("face search index loaded", this.lastLoad);
  }

  /** The faces touched by transactions unfinished at the last read, reloaded. */
  private async catchUp() {
    const galleries = this.galleries!;
    const pool = await sqlPool();
    const { horizon, touched } = (await runPrepared(changesSince, { horizon: this.horizon }))[0]!;
    if (touched.length > 0) {
      const current = await runPrepared(activeFaces, { seqs: touched });
      for (const seq of touched) galleries.removeEverywhere(Number(seq));
      await putRows(galleries, current, pool);
    }
    this.horizon = horizon;
    this.syncedAt = Date.now();
  }
}

/**
 * Adds rows to the galleries, opening their sealed codes (the time it takes
 * is added to `opening.ms`). A face without a stored code (codes cleared by
 * a change of the code's rotation) is coded from its sealed template; one
 * without either (stored before templates were sealed, not yet sealed by
 * the migration runner) is left out. A code sealed under a key that is not
 * configured fails the load: an index silently missing faces would call
 * duplicates unique.
 */
async function putRows(galleries: CodeGalleries, rows: FaceRow[], connection: Pick<pg.Pool, "query">, opening: { ms: number } = { ms: 0 }) {
  const uncoded = rows.filter((r) => r.search_code === null).map((r) => r.seq);
  const templates =
    uncoded.length === 0
      ? []
      : (
          await runPreparedOn(connection, sealedTemplates, { seqs: uncoded })
        ).flatMap((t) => (t.template_sealed ? [{ seq: t.seq, template_sealed: t.template_sealed }] : []));
  const started = performance.now();
  const codes = new Map(templates.map((t) => [t.seq, searchCode(openTemplate(t.template_sealed))]));
  const opened = rows.map((row) => (row.search_code ? openSearchCode(row.search_code) : codes.get(row.seq)));
  opening.ms += performance.now() - started;
  rows.forEach((row, i) => {
    const code = opened[i];
    if (code) galleries.put(row.app_id, Number(row.seq), code);
  });
}

const galleryIndexSlot = processSlot<GalleryIndex>("galleryIndex");

export function galleryIndex(): GalleryIndex {
  galleryIndexSlot.value ??= new GalleryIndex();
  return galleryIndexSlot.value;
}

/** Loads the index at startup so the first search does not wait for it. */
export function warmGalleryIndex() {
  galleryIndex()
    .sync()
    .catch((err) => logger.error("face search index did not load; the next search retries", describeError(err)));
}

/** Drops change-log rows older than CHANGE_LOG_DAYS. */
export async function pruneFaceIndexChanges(at: Date): Promise<number> {
  const cutoff = new Date(at.getTime() - CHANGE_LOG_DAYS * 86_400_000);
  const { count } = await (await db()).faceIndexChange.deleteMany({ where: { createdAt: { lt: cutoff } } });
  return count;
}
