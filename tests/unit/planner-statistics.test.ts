import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANALYZE_THRESHOLD, analyzeDueTables, tablesDueForAnalyze } from "@/lib/db/planner-statistics";

/** The embedded database's stand-in for autovacuum's ANALYZE decides by autovacuum's rule. */
let db: PGlite;

/**
 * No test here flushes PGlite's activity counters itself: PGlite's backend never flushes them on its
 * own (rows inserted read as 0 changed until something forces it), so tablesDueForAnalyze must.
 */
async function insert(table: string, from: number, count: number) {
  await db.query(`INSERT INTO ${table} SELECT g, g FROM generate_series($1::int, $2::int) g`, [from, from + count - 1]);
}

beforeAll(async () => {
  db = await PGlite.create();
  await db.exec(`CREATE TABLE grows (id int PRIMARY KEY, v int); CREATE TABLE "Mixed Case" (id int PRIMARY KEY, v int); CREATE TABLE empty (id int)`);
});
afterAll(() => db.close());

describe("planner statistics on the embedded database", () => {
  it("sees rows inserted a moment ago: PGlite's counters are flushed before they are read", async () => {
    await db.exec("CREATE TABLE fresh (id int PRIMARY KEY, v int)");
    await db.query("ANALYZE fresh");
    await db.query("INSERT INTO fresh SELECT g, g FROM generate_series(1, 10000) g");
    expect(await tablesDueForAnalyze(db)).toContain("public.fresh");
    await analyzeDueTables(db);
    expect(await tablesDueForAnalyze(db)).not.toContain("public.fresh");
  });

  it("analyzes a table that holds data and was never analyzed, and leaves empty ones alone", async () => {
    await insert("grows", 1, 1000);
    await insert(`"Mixed Case"`, 1, 10);
    expect(await tablesDueForAnalyze(db)).toEqual([`public."Mixed Case"`, "public.grows"]);
    expect(await analyzeDueTables(db)).toEqual([`public."Mixed Case"`, "public.grows"]);
    const { rows } = await db.query<{ relname: string; reltuples: number }>("SELECT relname, reltuples FROM pg_class WHERE relname IN ('grows', 'Mixed Case', 'empty') ORDER BY relname");
    expect(rows).toEqual([
      { relname: "Mixed Case", reltuples: 10 },
      { relname: "empty", reltuples: -1 },
      { relname: "grows", reltuples: 1000 },
    ]);
    expect(await tablesDueForAnalyze(db)).toEqual([]);
  });

  it("analyzes again only after more rows changed than 50 plus a tenth of the table", async () => {
    const limit = ANALYZE_THRESHOLD + 0.1 * 1000; // 150 for a table of 1,000 rows
    await insert("grows", 1001, limit);
    expect(await tablesDueForAnalyze(db)).toEqual([]);
    await db.query("UPDATE grows SET v = v + 1 WHERE id = 1");
    expect(await analyzeDueTables(db)).toEqual(["public.grows"]);
    const { rows } = await db.query<{ reltuples: number }>("SELECT reltuples FROM pg_class WHERE relname = 'grows'");
    expect(rows[0]!.reltuples).toBe(1000 + limit);
  });
});
