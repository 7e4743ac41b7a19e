import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * Fresh databases for tests. TEST_DATABASE_URL (a PostgreSQL server URL with
 * rights to create databases) -> a new database `svc_test_<random>`, dropped
 * afterwards. Unset -> a fresh embedded data directory (PGlite).
 *
 * A fresh database starts as a copy of the run's migrated template (made
 * once by the global setup with `npm run db:migrate`, the operator's own
 * command; see prepareDatabaseTemplate): every migration applied, no rows.
 * A server started on it finds nothing to migrate, exactly as on a restart.
 * Applying the migrations costs about 10 s of CPU per embedded database, and
 * a run makes dozens. Tests about migrating itself (an empty database, a
 * database older than the schema) ask for `{ empty: true }`.
 */
export type TestDatabase = {
  kind: "postgres" | "embedded";
  /** Variables that point the app (server or CLI) at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
};

/**
 * The run's migrated template: a PostgreSQL database's name, or an embedded
 * data directory; embedded, also a freshly initialized one with nothing
 * migrated (`emptyDataDir`): PGlite's initdb costs about 6 s of CPU, a copy
 * a fraction of one. (PostgreSQL's CREATE DATABASE is already a copy.)
 */
export type DatabaseTemplate = { kind: "postgres"; name: string } | { kind: "embedded"; dataDir: string; emptyDataDir: string };

declare module "vitest" {
  export interface ProvidedContext {
    /** Set by the global setup; absent outside the integration project. */
    databaseTemplate: DatabaseTemplate | null;
  }
}

export function testDatabaseKind(): "postgres" | "embedded" {
  return process.env.TEST_DATABASE_URL ? "postgres" : "embedded";
}

export async function createTestDatabase(label = "db", options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const template = await runTemplate();
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-test-${label}-`));
    if (template?.kind === "embedded") {
      const from = options.empty ? template.emptyDataDir : template.dataDir;
      fs.cpSync(path.join(from, "pglite"), path.join(dir, "pglite"), { recursive: true });
    }
    return {
      kind: "embedded",
      env: { DATA_DIR: dir },
      async drop() {
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `svc_test_${label.replace(/\W/g, "_")}_${randomBytes(5).toString("hex")}`;
  await onAdmin(admin, (client) => createDatabase(client, name, template?.kind === "postgres" && !options.empty ? template.name : null));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-test-${label}-`));
  return {
    kind: "postgres",
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    async drop() {
      await onAdmin(admin, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function onAdmin<T>(admin: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * CREATE DATABASE, as a copy of `template` when given. PostgreSQL refuses to
 * copy a template another session is connected to, or copying at that
 * instant (55006 object_in_use, when two workers copy at once): tried again.
 */
async function createDatabase(client: pg.Client, name: string, template: string | null): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== "55006" || attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

/** The template the global setup made for this run, or null (outside the integration project: a fresh, empty database). */
async function runTemplate(): Promise<DatabaseTemplate | null> {
  try {
    const { inject } = await import("vitest");
    return inject("databaseTemplate") ?? null;
  } catch {
    return null;
  }
}

/**
 * Makes the run's template: an empty database of the kind this run tests,
 * migrated by `npm run db:migrate` as an operator would. Returns it and its removal.
 */
export async function prepareDatabaseTemplate(): Promise<{ template: DatabaseTemplate; drop(): Promise<void> }> {
  const { runScript } = await import("./cli");
  const database = await createTestDatabase("template", { empty: true });
  const empty = database.kind === "embedded" ? await initializedEmbeddedDirectory() : null;
  // Embedded, the template migrates a copy of the initialized directory (one initdb a run, not two).
  if (empty) fs.cpSync(path.join(empty.env.DATA_DIR!, "pglite"), path.join(database.env.DATA_DIR!, "pglite"), { recursive: true });
  const migrated = await runScript("bin/migrate.ts", [], database.env);
  if (migrated.code !== 0) throw new Error(`the test database template did not migrate:\n${migrated.stderr}`);
  if (empty) {
    return {
      template: { kind: "embedded", dataDir: database.env.DATA_DIR!, emptyDataDir: empty.env.DATA_DIR! },
      drop: () => Promise.all([database.drop(), empty.drop()]).then(() => {}),
    };
  }
  const name = new URL(database.env.DATABASE_URL!).pathname.slice(1);
  // Only a template database may be copied while others are (IS_TEMPLATE also keeps anyone from connecting by mistake).
  await onAdmin(process.env.TEST_DATABASE_URL!, async (c) => {
    await c.query(`ALTER DATABASE "${name}" IS_TEMPLATE true`);
    await c.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
  });
  return {
    template: { kind: "postgres", name },
    async drop() {
      await onAdmin(process.env.TEST_DATABASE_URL!, async (c) => {
        await c.query(`ALTER DATABASE "${name}" IS_TEMPLATE false`);
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
      await database.drop().catch(() => {});
    },
  };
}

/** An embedded data directory PGlite has initialized (initdb) and nothing has migrated: what a first start finds. */
async function initializedEmbeddedDirectory(): Promise<TestDatabase> {
  const database = await createTestDatabase("template-empty", { empty: true });
  const { PGlite } = await import("@electric-sql/pglite");
  await (await PGlite.create({ dataDir: path.join(database.env.DATA_DIR!, "pglite") })).close();
  return database;
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
