import type pg from "pg";
import { openBytes, sealBytes } from "@/lib/crypto/encryption";
import { searchCode, TEMPLATE_DIMENSIONS } from "./search-code";

/**
 * Gallery faces are personal (biometric) data: `face_identities` keeps each
 * template and its 1:N search code sealed with sealBytes (AES-256-GCM, the
 * key's id in every value), like every other personal value at rest (docs/operations.md
 * "Secrets and personal data at rest"; lib/operations/sealed-columns.ts lists
 * both columns, so `svc keys:rotate` re-seals them). The search index opens
 * the codes once, as it loads them (lib/faces/gallery-index.ts); the
 * decision opens the few candidates' templates it re-scores
 * (lib/faces/gallery.ts).
 *
 * A template is sealed as its 1,024 values in float32, little-endian: the
 * precision the gallery always stored (`real[]` before it was sealed).
 */
const TEMPLATE_BYTES = TEMPLATE_DIMENSIONS * 4;

export function sealTemplate(template: ArrayLike<number>): Uint8Array<ArrayBuffer> {
  if (template.length !== TEMPLATE_DIMENSIONS) throw new Error(`a face template has ${TEMPLATE_DIMENSIONS} values, not ${template.length}`);
  const plain = Buffer.allocUnsafe(TEMPLATE_BYTES);
  for (let i = 0; i < TEMPLATE_DIMENSIONS; i++) plain.writeFloatLE(template[i]!, i * 4);
  return sealBytes(plain);
}

/** Whether this machine stores a float32 as the little-endian bytes it was sealed in (every platform Node runs on today). */
const LITTLE_ENDIAN = new Uint8Array(new Float32Array([1]).buffer)[3] === 0x3f;

export function openTemplate(sealed: Uint8Array): Float32Array {
  const plain = openBytes(sealed);
  if (plain.length !== TEMPLATE_BYTES) throw new Error(`a sealed face template opened to ${plain.length} bytes, not ${TEMPLATE_BYTES}`);
  const template = new Float32Array(TEMPLATE_DIMENSIONS);
  // A byte copy on little-endian machines: the search re-scores hundreds of these a search.
  if (LITTLE_ENDIAN) new Uint8Array(template.buffer).set(plain);
  else for (let i = 0; i < TEMPLATE_DIMENSIONS; i++) template[i] = plain.readFloatLE(i * 4);
  return template;
}

/** A template's search code (lib/faces/search-code.ts), sealed. */
export function sealedSearchCode(template: ArrayLike<number>): Uint8Array<ArrayBuffer> {
  return sealBytes(searchCode(template));
}

export function openSearchCode(sealed: Uint8Array): Buffer {
  return openBytes(sealed);
}

const BATCH = 500;

/**
 * Seals the gallery templates stored in clear before templates were sealed
 * (migration 20261125030000_seal_face_templates moved them to
 * `face_templates_to_seal`): each face gets its sealed template and sealed
 * search code (computed from the template, as enrollFace does) and leaves
 * that table, one transaction a batch; when it is done the table is
 * truncated, so its files are given back at once. Run by the migration
 * runner after the migrations, under its lock; idempotent, and resumes
 * where an interrupted run stopped. Every later start costs one read of
 * the empty table. A face that a newer server has already re-enrolled
 * (a sealed template) keeps it. Returns how many faces it sealed.
 */
export async function sealStoredFaceTemplates(client: pg.Client, log: (line: string) => void = () => {}): Promise<number> {
  const { rows: table } = await client.query<{ found: boolean }>("SELECT to_regclass('face_templates_to_seal') IS NOT NULL AS found");
  if (!table[0]?.found) return 0; // migrated only part of the way (tests do)
  let sealed = 0;
  let seen = 0;
  for (;;) {
    await client.query("BEGIN");
    try {
      const { rows } = await client.query<{ face_id: string; embedding: number[] | null }>(
        "SELECT face_id, embedding FROM face_templates_to_seal ORDER BY face_id LIMIT $1 FOR UPDATE",
        [BATCH],
      );
      const faces = rows.filter((r) => r.embedding?.length === TEMPLATE_DIMENSIONS);
      if (faces.length > 0) {
        const updated = await client.query(
          `UPDATE face_identities f SET template_sealed = s.template, search_code = s.code
             FROM unnest($1::text[], $2::bytea[], $3::bytea[]) AS s(id, template, code)
            WHERE f.id = s.id AND f.template_sealed IS NULL`,
          [faces.map((r) => r.face_id), faces.map((r) => Buffer.from(sealTemplate(r.embedding!))), faces.map((r) => Buffer.from(sealedSearchCode(r.embedding!)))],
        );
        sealed += updated.rowCount ?? 0;
      }
      seen += rows.length;
      if (rows.length > 0) await client.query("DELETE FROM face_templates_to_seal WHERE face_id = ANY($1::text[])", [rows.map((r) => r.face_id)]);
      await client.query("COMMIT");
      if (rows.length < BATCH) break;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    }
  }
  if (seen > 0) {
    await client.query("TRUNCATE face_templates_to_seal");
    log(`sealed the templates and search codes of ${sealed} gallery faces`);
    if (seen > sealed) log(`${seen - sealed} stored templates were not sealed: malformed, or their face was enrolled again since`);
  }
  return sealed;
}
