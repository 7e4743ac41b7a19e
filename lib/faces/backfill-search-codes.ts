import type pg from "pg";
import { searchCode } from "./search-code";

const BATCH = 500;

/**
 * Gives every gallery face without one its 1:N search code, computed from
 * the stored template (the code is a JavaScript computation, so the SQL
 * migration that added the column cannot). Run by the migration runner after
 * the migrations, under its lock; idempotent. Returns how many faces were coded.
 */
export async function backfillSearchCodes(client: pg.Client, log: (line: string) => void = () => {}): Promise<number> {
  const { rows: column } = await client.query(
    "SELECT 1 FROM information_schema.columns WHERE table_name = 'face_identities' AND column_name = 'search_code'",
  );
  if (column.length === 0) return 0; // migrated only part of the way (tests do)
  let coded = 0;
  for (;;) {
    const { rows } = await client.query<{ id: string; embedding: number[] }>(
      "SELECT id, embedding FROM face_identities WHERE search_code IS NULL ORDER BY seq LIMIT $1",
      [BATCH],
    );
    if (rows.length === 0) break;
    await client.query(
      `UPDATE face_identities f SET search_code = c.code
         FROM unnest($1::text[], $2::bytea[]) AS c(id, code)
        WHERE f.id = c.id`,
      [rows.map((r) => r.id), rows.map((r) => searchCode(r.embedding))],
    );
    coded += rows.length;
  }
  if (coded > 0) log(`computed the 1:N search codes of ${coded} gallery faces`);
  return coded;
}
