import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The data-access rule (docs/architecture.md "Data access"): Prisma for
 * CRUD, typed Kysely (lib/db/typed-sql.ts) for hot or set-based statements,
 * no SQL written as a string outside the migrations and the database
 * plumbing. A statement written as a string is `.query("...")` on a pg pool
 * or client, or Prisma's `$queryRaw` / `$executeRaw` (tagged or Unsafe).
 */
const lib = path.join(__dirname, "../../lib");
const RAW_SQL = /\$(?:query|execute)Raw(?:Unsafe)?\b|\.query(?:<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>)?\(/g;

/** Where SQL strings belong: the migration runner, planner statistics, the typed-SQL runner, advisory locks and snapshot reads (transaction modes, cursors, snapshot horizons); health's `SELECT 1`; key rotation, which walks every sealed column by name. */
const PLUMBING = new Set([
  "db/migrate.ts",
  "db/planner-statistics.ts",
  "db/typed-sql.ts",
  "db/advisory-locks.ts",
  "db/snapshot-reads.ts",
  "health/check-health.ts",
  "operations/rotate-keys.ts",
  "jobs/queue.ts",
]);

/**
 * Statements still written as strings on 2026-11-28, by file: each count may
 * only go down (a file rewritten in Prisma or Kysely leaves this list). Only
 * the data migrations (sealed-faces, location-fix) are left, and they stay:
 * they are migrations, run in the migration runner, on its connection,
 * against the schema as it was when they were written (a table that may be
 * gone from the current schema and its generated types, hence the
 * to_regclass checks), so they are frozen SQL like the migrations' own, not
 * queries on today's types.
 */
const KNOWN: Record<string, number> = {
  "faces/sealed-faces.ts": 8,
  "sessions/location-fix.ts": 3,
};

function rawSqlByFile(): Record<string, number> {
  const found: Record<string, number> = {};
  for (const file of fs.readdirSync(lib, { recursive: true }) as string[]) {
    if (!/\.tsx?$/.test(file) || PLUMBING.has(file)) continue;
    const count = fs.readFileSync(path.join(lib, file), "utf8").match(RAW_SQL)?.length ?? 0;
    if (count > 0) found[file] = count;
  }
  return found;
}

describe("data access", () => {
  const found = rawSqlByFile();

  it("no new SQL string outside the plumbing: write it with Prisma or typed Kysely (lib/db/typed-sql.ts)", () => {
    const grown = Object.entries(found).filter(([file, count]) => count > (KNOWN[file] ?? 0));
    expect(grown).toEqual([]);
  });

  it("the known ones only go: a count that fell is lowered here, so it cannot grow back", () => {
    const fell = Object.entries(KNOWN).filter(([file, count]) => (found[file] ?? 0) < count);
    expect(fell).toEqual([]);
  });

  it("recognises a statement written as a string, typed or not, and Prisma's raw calls", () => {
    const sample = 'await pool.query<{ a: Record<string, Array<number>> }>("SELECT 1"); await tx.$executeRawUnsafe("DELETE"); await prisma.$queryRaw`SELECT 2`; prisma.face.findMany()';
    expect(sample.match(RAW_SQL)).toHaveLength(3);
  });
});
