import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * Fresh databases for tests. TEST_DATABASE_URL (a PostgreSQL server URL with
 * rights to create databases) -> a new database `svc_test_<random>`, dropped
 * afterwards. Unset -> a fresh embedded data directory (PGlite).
 */
export type TestDatabase = {
  kind: "postgres" | "embedded";
  /** Variables that point the app (server or CLI) at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
};

export function testDatabaseKind(): "postgres" | "embedded" {
  return process.env.TEST_DATABASE_URL ? "postgres" : "embedded";
}

export async function createTestDatabase(label = "db"): Promise<TestDatabase> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-test-${label}-`));
    return {
      kind: "embedded",
      env: { DATA_DIR: dir },
      async drop() {
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `svc_test_${label}_${randomBytes(5).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-test-${label}-`));
  return {
    kind: "postgres",
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The URL of the database a running install uses (embedded: through its host's socket). */
export function databaseUrl(env: Record<string, string>): string {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const host = JSON.parse(fs.readFileSync(path.join(env.DATA_DIR!, "pglite.host.json"), "utf8")) as { port: number };
  return `postgresql://postgres:postgres@127.0.0.1:${host.port}/postgres?sslmode=disable`;
}

/**
 * Waits until a process of the install serves its database: at once with
 * PostgreSQL; embedded, until some process (a server, a worker) hosts the
 * data directory (its pglite.host.json), which on a busy machine takes a
 * worker several seconds after it starts.
 */
export async function waitForDatabaseHost(env: Record<string, string>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await sql(env, "SELECT 1");
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Runs one SQL statement against a running install's database. */
export async function sql<T extends pg.QueryResultRow = any>(
  env: Record<string, string>,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl(env) });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
