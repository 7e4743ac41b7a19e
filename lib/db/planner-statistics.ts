import "server-only";
import pg from "pg";

/**
 * Planner statistics for the embedded database. PostgreSQL servers keep them
 * current with autovacuum; PGlite has no background workers, so without this
 * its tables are never analyzed and the planner guesses: at 100,000 enrolled
 * faces the 1:N search took 23 ms at p50 and 57 ms at p99 instead of 4 ms and
 * 12 ms (docs/hosted-flow.md "Face search at scale"). The server that hosts the embedded
 * database analyzes every table when it opens it (PGlite forgets its activity
 * counters when it closes), and the planner-statistics job (every minute,
 * lib/server/scheduled-jobs.ts) then analyzes the tables that changed enough,
 * by autovacuum's own rule.
 */

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, PostgreSQL's defaults. */
export const ANALYZE_THRESHOLD = 50;
export const ANALYZE_SCALE_FACTOR = 0.1;

/** A pg pool or client, or a PGlite instance. */
type Queryable = { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * The tables autovacuum would analyze now: more rows changed since the last
 * ANALYZE than the threshold plus the scale factor of the table's rows, or
 * never analyzed while holding data.
 */
export async function tablesDueForAnalyze(client: Queryable): Promise<string[]> {
  // A backend's activity counters reach pg_stat_user_tables only when it flushes them, and PGlite's one
  // backend (every connection of the embedded host) does not flush by itself: without this, 10,000 rows
  // inserted a minute ago still read as 0 changed and the table is never due. The flush happens at the
  // end of this statement, so the next one reads current counters. (PostgreSQL 15+; on a server it only
  // flushes this connection's own counters.)
  await client.query("SELECT pg_stat_force_next_flush()");
  const { rows } = await client.query(
    `SELECT format('%I.%I', s.schemaname, s.relname) AS name
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE (c.reltuples < 0 AND pg_relation_size(c.oid) > 0)
         OR s.n_mod_since_analyze > $1 + $2 * greatest(c.reltuples, 0)
      ORDER BY 1`,
    [ANALYZE_THRESHOLD, ANALYZE_SCALE_FACTOR],
  );
  return (rows as { name: string }[]).map((r) => r.name);
}

/** Analyzes the tables that are due (see tablesDueForAnalyze); returns their names. */
export async function analyzeDueTables(client: Queryable): Promise<string[]> {
  const due = await tablesDueForAnalyze(client);
  for (const table of due) await client.query(`ANALYZE ${table}`);
  return due;
}

/** Analyzes the whole database once, over its own connection (the embedded host, at open). */
export async function analyzeDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("ANALYZE");
  } finally {
    await client.end().catch(() => {});
  }
}
