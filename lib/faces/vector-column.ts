import type pg from "pg";

/**
 * pgvector, when the database has it (the embedded PGlite loads it; plain
 * PostgreSQL works without): after migrations, `face_identities` gains an
 * `embedding_vec vector(1024)` copy of each template so the 1:N search runs
 * as a native `<=>` scan. Without it the same search runs in plain SQL over
 * the `real[]` templates (lib/faces/gallery.ts). Returns whether it is on.
 */
export const EMBEDDING_DIMENSIONS = 1024;

export async function enableFaceVectors(client: pg.Client, log: (line: string) => void = () => {}): Promise<boolean> {
  const { rows } = await client.query<{ installed: string | null }>(
    "SELECT installed_version AS installed FROM pg_available_extensions WHERE name = 'vector'",
  );
  if (rows.length === 0) return false;
  try {
    if (!rows[0]!.installed) await client.query("CREATE EXTENSION IF NOT EXISTS vector");
    await client.query(`ALTER TABLE face_identities ADD COLUMN IF NOT EXISTS embedding_vec vector(${EMBEDDING_DIMENSIONS})`);
    await client.query("UPDATE face_identities SET embedding_vec = embedding::vector WHERE embedding_vec IS NULL");
    return true;
  } catch (err) {
    log(`pgvector not used (${(err as Error).message}); face search runs in plain SQL`);
    return false;
  }
}
