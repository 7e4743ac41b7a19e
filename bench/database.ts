import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";

/** The PostgreSQL server benchmarks create their databases on (BENCH_DATABASE_URL). */
export const BENCH_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/**
 * A fresh install for one benchmark: a database of its own on
 * BENCH_DATABASE_URL, a data directory and an encryption key (`env`, for
 * the server and the CLI); `drop()` removes the database and the directory.
 */
export async function createBenchInstall(label: string): Promise<{ env: { DATABASE_URL: string; DATA_DIR: string; ENCRYPTION_KEY: string }; drop(): Promise<void> }> {
  const name = `svc_bench_${label}_${randomBytes(4).toString("hex")}`;
  const client = new pg.Client({ connectionString: BENCH_ADMIN_URL });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  const url = new URL(BENCH_ADMIN_URL);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString(), DATA_DIR: fs.mkdtempSync(`/tmp/svc-bench-${label}-`), ENCRYPTION_KEY: randomBytes(32).toString("hex") };
  return {
    env,
    async drop() {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
      fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
    },
  };
}
