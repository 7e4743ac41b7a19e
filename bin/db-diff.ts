// Schema changes, offline:
//   npm run db:diff -- --name add_things   writes prisma/migrations/<ts>_add_things/
//       migration.sql (the SQL from the last migration's schema to
//       prisma/schema.prisma) and schema.prisma (a snapshot for the next diff)
//   npm run db:diff -- --check             exit 0 when the last snapshot equals
//       prisma/schema.prisma, 2 when a migration is missing (a test runs it)
// Prisma's schema engine insists on connecting through the adapter even for
// a pure schema-to-schema diff, so it is given an in-memory PGlite served on
// a local socket: no database server needed.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PgliteWireServer } from "@/lib/db/pglite-wire-server";

const args = process.argv.slice(2);
const check = args.includes("--check");
const nameIndex = args.indexOf("--name");
const name = nameIndex >= 0 ? args[nameIndex + 1] : undefined;
if (!check && !(name && /^[a-z0-9_]+$/.test(name))) {
  process.stderr.write("usage: npm run db:diff -- --check | --name snake_case_name\n");
  process.exit(2);
}

const migrationsDir = path.join("prisma", "migrations");
const snapshots = fs
  .readdirSync(migrationsDir)
  .filter((d) => fs.existsSync(path.join(migrationsDir, d, "schema.prisma")))
  .sort();
const last = snapshots.at(-1);
const from = last
  ? ["--from-schema-datamodel", path.join(migrationsDir, last, "schema.prisma")]
  : ["--from-empty"];

const db = await PGlite.create();
const server = new PgliteWireServer(db);
const port = await server.listen();
const prismaCli = path.join(process.cwd(), "node_modules", "prisma", "build", "index.js");
// Asynchronous on purpose: the socket server lives on this event loop.
const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
  const child = spawn(
    process.execPath,
    [prismaCli, "migrate", "diff", ...from, "--to-schema-datamodel", "prisma/schema.prisma", check ? "--exit-code" : "--script"],
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
  if (result.status === 2) process.stderr.write(`prisma/schema.prisma changed since ${last}: run npm run db:diff -- --name <change>\n`);
  else if (result.status !== 0) process.stderr.write(result.stderr);
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
fs.copyFileSync(path.join("prisma", "schema.prisma"), path.join(dir, "schema.prisma"));
process.stdout.write(`Wrote ${dir}/migration.sql\n`);
