import { randomUUID } from "node:crypto";
import type pg from "pg";
import { sealedSearchCode, sealTemplate } from "@/lib/faces/sealed-faces";

const BATCH = 500;

/** A face as enrollFace stores it: its template and search code, each sealed under this process's ENCRYPTION_KEY. */
function sealedFace(template: ArrayLike<number>) {
  return { template: Buffer.from(sealTemplate(template)), code: Buffer.from(sealedSearchCode(template)) };
}

/**
 * Writes faces straight into a project's gallery, as a gallery that existed
 * before this run: each one a `face_identities` row (sealed template and
 * search code, as lib/faces/gallery.ts enrollFace stores them) with an
 * active enrollment for `appId`. Templates must be unit length, as
 * enrollFace makes them; the process must hold the server's
 * ENCRYPTION_KEY. Returns their ids (svc_uuid) in order.
 */
export async function seedGallery(db: Pick<pg.ClientBase, "query">, appId: string, templates: ArrayLike<number>[]): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < templates.length; start += BATCH) {
    const batch = templates.slice(start, start + BATCH);
    const batchIds = batch.map(() => randomUUID());
    const sealed = batch.map(sealedFace);
    await db.query(
      `WITH faces AS (
         INSERT INTO face_identities (id, template_sealed, search_code, model, updated_at)
         SELECT t.id, t.template, t.code, 'synthetic', now()
           FROM unnest($1::text[], $2::bytea[], $3::bytea[]) AS t(id, template, code)
         RETURNING id)
       INSERT INTO face_enrollments (id, face_id, app_id) SELECT gen_random_uuid()::text, id, $4 FROM faces`,
      [batchIds, sealed.map((f) => f.template), sealed.map((f) => f.code), appId],
    );
    ids.push(...batchIds);
  }
  return ids;
}

/** The part of PGlite the COPY seeder uses: a query with a blob for `/dev/blob`. */
export type BlobQueryable = { query(sql: string, params?: unknown[], options?: { blob?: Blob }): Promise<unknown> };

const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);

/**
 * The rows of `face_identities (id, template_sealed, search_code, model,
 * updated_at)` in PostgreSQL's binary COPY format (the COPY page of the
 * PostgreSQL manual): inside the WebAssembly PGlite, parsing a million rows
 * of text was most of the seeding's time. (pg-copy-streams-binary writes
 * the same format, but slowly: 2.35 ms a row here.)
 */
function faceRowsBinaryCopy(rows: { id: string; template: Buffer; code: Buffer }[], at: Date): Buffer {
  const model = Buffer.from("synthetic");
  const timestamp = Buffer.alloc(8);
  timestamp.writeBigInt64BE(BigInt(at.getTime() - POSTGRES_EPOCH_MS) * 1000n);
  const parts: Buffer[] = [Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]; // signature, flags, no header extension
  const field = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeInt32BE(bytes.length);
    parts.push(length, bytes);
  };
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(5);
    parts.push(count);
    field(Buffer.from(row.id));
    field(row.template);
    field(row.code);
    field(model);
    field(timestamp);
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1);
  parts.push(trailer);
  return Buffer.concat(parts);
}

/**
 * seedGallery for a PGlite opened directly (no other process holding it):
 * the faces in one binary COPY through `/dev/blob`, then their enrollments.
 * The gallery benchmark seeds the embedded database this way.
 */
export async function seedGalleryByCopy(pglite: BlobQueryable, appId: string, templates: ArrayLike<number>[]): Promise<string[]> {
  const rows = templates.map((template) => ({ id: randomUUID(), ...sealedFace(template) }));
  const blob = new Blob([faceRowsBinaryCopy(rows, new Date()) as Uint8Array<ArrayBuffer>]);
  await pglite.query("COPY face_identities (id, template_sealed, search_code, model, updated_at) FROM '/dev/blob' WITH (FORMAT binary)", [], { blob });
  const ids = rows.map((r) => r.id);
  await pglite.query("INSERT INTO face_enrollments (id, face_id, app_id) SELECT gen_random_uuid()::text, id, $2 FROM unnest($1::text[]) AS t(id)", [ids, appId]);
  return ids;
}
