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
