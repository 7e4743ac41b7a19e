// Schema changes, offline:
//   npm run db:diff -- --name add_things   writes prisma/migrations/<ts>_add_things/
//       migration.sql: the SQL from the schema the migrations build to
//       prisma/schema.prisma
//   npm run db:diff -- --check             exit 0 when the migrations build
//       prisma/schema.prisma, 2 when a migration is missing (a test runs it)
// The "from" side is a shadow database built from the migrations themselves:
// Prisma's schema engine (`--from-migrations`) applies every migration.sql to
// an in-memory PGlite, served on a local socket through the driver adapter,
// and describes it. With an adapter in the Prisma config, Prisma 6.19 refuses
// `--from-url` and `--shadow-database-url`; the adapter's own database is the
// shadow. bin/db-diff.config.ts is that config (it also teaches the adapter
// two catalog types the describer reads). No database server needed.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PgliteWireServer } from "@/lib/db/pglite-wire-server";
import { readMigrations } from "@/lib/db/migrate";

const args = process.argv.slice(2);
const check = args.includes("--check");
const nameIndex = args.indexOf("--name");
const name = nameIndex >= 0 ? args[nameIndex + 1] : undefined;
if (!check && !(name && /^[a-z0-9_]+$/.test(name))) {
  process.stderr.write("usage: npm run db:diff -- --check | --name snake_case_name\n");
  process.exit(2);
}

const migrationsDir = path.join("prisma", "migrations");
const hasMigrations = readMigrations().length > 0;
const from = hasMigrations ? ["--from-migrations", migrationsDir] : ["--from-empty"];

const db = await PGlite.create();
const server = new PgliteWireServer(db);
const port = await server.listen();
const prismaCli = path.join(process.cwd(), "node_modules", "prisma", "build", "index.js");
// Asynchronous on purpose: the socket server lives on this event loop.
const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
  const child = spawn(
    process.execPath,
    [prismaCli, "migrate", "diff", "--config", path.join("bin", "db-diff.config.ts"), ...from, "--to-schema-datamodel", "prisma/schema.prisma", check ? "--exit-code" : "--script"],
    { env: { ...process.env, DATABASE_URL: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable` } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.on("close", (status) => resolve({ status, stdout, stderr }));
});
await server.close();
await db.close();

if (check) {
  if (result.status === 2) {
    process.stderr.write(`prisma/schema.prisma differs from what the migrations build: run npm run db:diff -- --name <change>\n${result.stdout}`);
  } else if (result.status !== 0) process.stderr.write(result.stderr);
  process.exit(result.status ?? 1);
}
if (result.status !== 0) {
  process.stderr.write(result.stderr);
  process.exit(result.status ?? 1);
}
if (/^\s*(-- This is an empty migration\.)?\s*$/.test(result.stdout)) {
  process.stdout.write("No schema changes: nothing written.\n");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name}`);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, "migration.sql"), result.stdout);
process.stdout.write(`Wrote ${dir}/migration.sql\n`);
