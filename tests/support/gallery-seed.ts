import { randomUUID } from "node:crypto";
import type pg from "pg";
import { searchCode } from "@/lib/faces/search-code";

const BATCH = 500;

/**
 * A template as a PostgreSQL `real[]` literal, each value to 8 decimals
 * written as an integer and an exponent (unit templates' values are about
 * 0.03: 6 to 7 significant digits, float32's precision). Integers print
 * ten times faster than fractions, which is most of the cost of seeding a
 * million faces.
 */
function realArrayLiteral(template: ArrayLike<number>): string {
  const parts = new Array<string>(template.length);
  for (let i = 0; i < template.length; i++) parts[i] = `${Math.round(template[i]! * 1e8)}e-8`;
  return `{${parts.join(",")}}`;
}

/**
 * Writes faces straight into a project's gallery, as a gallery that existed
 * before this run: each one a `face_identities` row (template and search
 * code, as lib/faces/gallery.ts enrollFace stores them) with an active
 * enrollment for `appId`. Templates must be unit length, as enrollFace
 * makes them. Returns their ids (svc_uuid) in order.
 */
export async function seedGallery(db: Pick<pg.ClientBase, "query">, appId: string, templates: ArrayLike<number>[]): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < templates.length; start += BATCH) {
    const batch = templates.slice(start, start + BATCH);
    const batchIds = batch.map(() => randomUUID());
    await db.query(
      `WITH faces AS (
         INSERT INTO face_identities (id, embedding, search_code, model, updated_at)
         SELECT t.id, t.embedding::real[], t.code, 'synthetic', now()
           FROM unnest($1::text[], $2::text[], $3::bytea[]) AS t(id, embedding, code)
         RETURNING id)
       INSERT INTO face_enrollments (id, face_id, app_id) SELECT gen_random_uuid()::text, id, $4 FROM faces`,
      [batchIds, batch.map(realArrayLiteral), batch.map((t) => searchCode(t)), appId],
    );
    ids.push(...batchIds);
  }
  return ids;
}

/** The part of PGlite the COPY seeder uses: a query with a blob for `/dev/blob`. */
export type BlobQueryable = { query(sql: string, params?: unknown[], options?: { blob?: Blob }): Promise<unknown> };

const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const FLOAT4_OID = 700;

/**
 * The rows of `face_identities (id, embedding, search_code, model,
 * updated_at)` in PostgreSQL's binary COPY format (the COPY page of the
 * PostgreSQL manual; arrays as array_send writes them). The server then
 * reads floats with float4recv instead of parsing their text: inside the
 * WebAssembly PGlite, parsing a million 1,024-float `real[]` texts is most of
 * 50 minutes, the binary COPY about a fifth of it. (pg-copy-streams-binary
 * writes the same format, but flattens each array with a quadratic
 * reduce-concat: 2.35 ms a row here, slower than the text it replaces.)
 */
function faceRowsBinaryCopy(rows: { id: string; template: ArrayLike<number>; code: Buffer }[], at: Date): Buffer {
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
    const n = row.template.length;
    const array = Buffer.alloc(20 + 8 * n);
    array.writeInt32BE(1, 0); // dimensions
    array.writeInt32BE(0, 4); // no NULLs
    array.writeInt32BE(FLOAT4_OID, 8);
    array.writeInt32BE(n, 12); // length of the dimension
    array.writeInt32BE(1, 16); // its lower bound
    for (let i = 0; i < n; i++) {
      array.writeInt32BE(4, 20 + 8 * i);
      array.writeFloatBE(row.template[i]!, 24 + 8 * i);
    }
    field(array);
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
  const rows = templates.map((template) => ({ id: randomUUID(), template, code: searchCode(template) }));
  const blob = new Blob([faceRowsBinaryCopy(rows, new Date()) as Uint8Array<ArrayBuffer>]);
  await pglite.query("COPY face_identities (id, embedding, search_code, model, updated_at) FROM '/dev/blob' WITH (FORMAT binary)", [], { blob });
  const ids = rows.map((r) => r.id);
  await pglite.query("INSERT INTO face_enrollments (id, face_id, app_id) SELECT gen_random_uuid()::text, id, $2 FROM unnest($1::text[]) AS t(id)", [ids, appId]);
  return ids;
}
