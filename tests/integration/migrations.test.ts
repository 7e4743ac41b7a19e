import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { connectEmbedded, type EmbeddedConnection } from "@/lib/db/embedded-host";
import { UNSEALED_LOCATION_FIXES } from "@/lib/sessions/location-fix";
import { migrateDatabase, readMigrations } from "@/lib/db/migrate";
import { registerAppDataMigrations } from "@/lib/operations/data-migrations";
import { runProcess, runScript } from "../support/cli";
import { openSearchCode, openTemplate } from "@/lib/faces/sealed-faces";
import { searchCode } from "@/lib/faces/search-code";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../support/database";
import { ROOT } from "../support/server";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn();
});

/**
 * A fresh database of the kind this run tests (PostgreSQL or embedded):
 * empty, or `migrated` (a copy of the run's template, which `npm run
 * db:migrate` migrated with the same migrateDatabase, for tests about
 * using a migrated database rather than migrating one).
 */
async function freshDatabase(label: string, options: { migrated?: boolean } = {}): Promise<string> {
  const db: TestDatabase = await createTestDatabase(label, { empty: !options.migrated });
  cleanups.push(() => db.drop());
  if (db.kind === "postgres") return db.env.DATABASE_URL!;
  const embedded: EmbeddedConnection = await connectEmbedded(db.env.DATA_DIR!, "cli");
  cleanups.push(() => embedded.close());
  return embedded.url;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Indexes only the migrations declare (Prisma has no partial indexes): left out of the comparison with Prisma's schema, checked on their own. */
const SQL_ONLY_INDEXES = ["check_results_unsealed_location_fixes_idx"];

async function catalog(url: string) {
  const columns = await query(
    url,
    `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default
       FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
      ORDER BY table_name, column_name`,
  );
  const indexes = await query(
    url,
    `SELECT indexname, indexdef FROM pg_indexes
      WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
        AND indexname NOT IN (${SQL_ONLY_INDEXES.map((name) => `'${name}'`).join(", ")}) ORDER BY indexname`,
  );
  const constraints = await query(
    url,
    `SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace
        AND conrelid::regclass::text <> '"_prisma_migrations"' AND conrelid::regclass::text <> '_prisma_migrations'
      ORDER BY rel, conname`,
  );
  const enums = await query(
    url,
    `SELECT t.typname, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY t.typname`,
  );
  return { columns, indexes, constraints, enums };
}

const names = readMigrations().map((m) => m.name);

/** A fresh database migrated up to the migration whose name ends with `suffix` (not applied), and every migration. */
async function migratedUpTo(label: string, suffix: string) {
  const url = await freshDatabase(label);
  const all = readMigrations();
  const cut = all.findIndex((m) => m.name.endsWith(suffix));
  expect(cut).toBeGreaterThan(0);
  await migrateDatabase(url, all.slice(0, cut));
  return { url, all };
}

/** An organization `o1` with an app `a1`, for an old gallery's enrollments. */
async function insertApp(url: string, name: string) {
  await query(url, `INSERT INTO organizations (id, name, updated_at) VALUES ('o1', '${name}', now())`);
  await query(url, `INSERT INTO apps (id, organization_id, name, environment, client_id, client_secret_hash, updated_at)
                    VALUES ('a1', 'o1', 'Old', 'test', 'c1', 'x', now())`);
}

// As every process that opens the database does (the server, the CLI, the worker, db:migrate).
registerAppDataMigrations();

describe(`migrations (${testDatabaseKind()})`, () => {
  it("apply every migration to an empty database, then nothing to an up-to-date one", async () => {
    const url = await freshDatabase("mig");
    const first = await migrateDatabase(url);
    expect(first).toEqual({ applied: names, alreadyApplied: [] });
    const second = await migrateDatabase(url);
    expect(second).toEqual({ applied: [], alreadyApplied: names });
    const rows = await query<{ migration_name: string; finished_at: Date | null; checksum: string }>(
      url,
      `SELECT migration_name, finished_at, checksum FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    expect(rows.every((r) => r.finished_at && r.checksum.length === 64)).toBe(true);
  });

  it("produce exactly the schema Prisma generates from schema.prisma", async () => {
    const [migrated, generated] = await Promise.all([freshDatabase("mig-a"), freshDatabase("mig-b")]);
    await migrateDatabase(migrated);
    const prismaCli = path.join(ROOT, "node_modules", "prisma", "build", "index.js");
    const diff = await runProcess(
      process.execPath,
      [prismaCli, "migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
      { DATABASE_URL: generated },
    );
    expect(diff.code, diff.stderr).toBe(0);
    const client = new pg.Client({ connectionString: generated });
    await client.connect();
    await client.query(diff.stdout);
    await client.end();
    expect(await catalog(migrated)).toEqual(await catalog(generated));
    // Triggers are not in Prisma's schema: the 1:N index's change log is fed by the migrations' own.
    const triggers = await query(migrated, "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname");
    expect(triggers).toEqual([{ tgname: "face_enrollments_index_log" }, { tgname: "face_identities_index_log" }]);
    const sqlOnly = await query(migrated, "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname LIKE 'check_results_unsealed%'");
    expect(sqlOnly.map((row) => row.indexname)).toEqual(SQL_ONLY_INDEXES);
  });

  it("let the start-up backfill find unsealed location fixes through their partial index, not a scan of check_results", async () => {
    const url = await freshDatabase("mig-fixes", { migrated: true });
    // With sequential scans priced out, the planner takes the partial index if and only if the query implies its predicate.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("SET enable_seqscan = off");
      const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${UNSEALED_LOCATION_FIXES} LIMIT 500`);
      expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain("check_results_unsealed_location_fixes_idx");
    } finally {
      await client.end();
    }
  });

  it("leave a database the Prisma client can fully use", async () => {
    const url = await freshDatabase("mig-use", { migrated: true });
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 2 }) });
    try {
      const developer = await prisma.developer.create({ data: { email: "m@example.com", passwordHash: "x" } });
      const org = await prisma.organization.create({
        data: {
          name: "Org",
          developers: { create: { developerId: developer.id } },
          wallet: { create: { balanceCents: 500, entries: { create: { amountCents: 500, balanceAfterCents: 500, kind: "manual_credit", reference: "r1" } } } },
          members: { create: { memberId: "vmem_000000000000000000000001", email: "w@example.com" } },
          auditLogs: { create: { actor: "test", action: "created", data: { a: 1 } } },
        },
      });
      const app = await prisma.app.create({
        data: {
          organizationId: org.id,
          name: "App",
          environment: "production",
          clientId: "cli_x",
          clientSecretHash: "h",
          redirectUris: ["https://a.example/cb"],
          apiKeys: { create: { prefix: "sk_live_abcd", keyHash: "k" } },
          webhooks: { create: { url: "https://a.example/hook", secretEncrypted: "v1.x" } },
          workflows: { create: { name: "W", features: ["liveness"], settings: { nested: { ok: true } } } },
        },
      });
      await prisma.idempotencyRecord.create({
        data: { scope: "s", key: "k", method: "POST", path: "/p", requestHash: "h", lockedUntil: new Date(), expiresAt: new Date() },
      });
      const loaded = await prisma.organization.findUniqueOrThrow({
        where: { id: org.id },
        include: { wallet: { include: { entries: true } }, members: true, auditLogs: true, apps: { include: { apiKeys: true, webhooks: true, workflows: true } } },
      });
      expect(loaded.wallet?.entries[0]?.amountCents).toBe(500);
      expect(loaded.apps[0]?.workflows[0]?.settings).toEqual({ nested: { ok: true } });
      expect(loaded.apps[0]?.redirectUris).toEqual(["https://a.example/cb"]);
      expect(loaded.apps[0]?.scopes).toEqual(["openid"]);
      expect(loaded.members[0]?.status).toBe("invited");
      expect(loaded.auditLogs[0]?.data).toEqual({ a: 1 });
      await prisma.app.update({ where: { id: app.id }, data: { redirectUris: { push: "http://localhost:1/cb" } } });
      // Unique constraints hold: one ledger reference per wallet.
      await expect(
        prisma.ledgerEntry.create({
          data: { walletId: loaded.wallet!.id, amountCents: 1, balanceAfterCents: 501, kind: "manual_credit", reference: "r1" },
        }),
      ).rejects.toMatchObject({ code: "P2002" });
      await prisma.organization.delete({ where: { id: org.id } });
      expect(await prisma.app.count()).toBe(0);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("the switch to timestamptz keeps the stored instants, on a server whose TimeZone is not UTC", async () => {
    const { url, all } = await migratedUpTo("mig-tz", "_timestamps_with_time_zone");
    // Before: timestamp without time zone, holding UTC wall-clock times (as Prisma wrote them).
    await query(url, `INSERT INTO developers (id, email, password_hash, created_at, updated_at)
                      VALUES ('d1', 'tz@example.com', 'x', '2026-01-02 03:04:05.678', '2026-07-01 23:30:00')`);
    // The migration runs in UTC+14 (PostgreSQL: a database setting; PGlite: its one shared session).
    if (testDatabaseKind() === "postgres") {
      await query(url, `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET timezone TO %L', current_database(), 'Pacific/Kiritimati'); END $$`);
    } else {
      await query(url, "SET timezone TO 'Pacific/Kiritimati'");
    }
    await migrateDatabase(url, all);
    const [row] = await query<{ zone: string; created_at: Date; updated_at: Date; type: string }>(
      url,
      `SELECT current_setting('TimeZone') AS zone, created_at, updated_at, pg_typeof(created_at)::text AS type FROM developers`,
    );
    expect(row).toEqual({
      zone: "Pacific/Kiritimati",
      created_at: new Date("2026-01-02T03:04:05.678Z"),
      updated_at: new Date("2026-07-01T23:30:00Z"),
      type: "timestamp with time zone",
    });
  });

  it("a face gallery enrolled before the 1:N search codes gets them, sealed, and feeds the index's change log from then on", async () => {
    const { url, all } = await migratedUpTo("mig-faces", "_face_search_index");
    const template = Array.from({ length: 1024 }, (_, i) => Math.sin(i + 1) / 22.6);
    await insertApp(url, "Old gallery");
    await query(url, `INSERT INTO face_identities (id, embedding, model, updated_at) VALUES ('f1', '{${template.join(",")}}', 'old', now())`);
    await query(url, `INSERT INTO face_enrollments (id, face_id, app_id) VALUES ('e1', 'f1', 'a1')`);
    await migrateDatabase(url, all);
    const [face] = await query<{ seq: string; search_code: Buffer }>(url, "SELECT seq::text, search_code FROM face_identities WHERE id = 'f1'");
    expect(openSearchCode(face!.search_code).equals(searchCode(template))).toBe(true);
    await query(url, "UPDATE face_enrollments SET status = 'unlinked' WHERE id = 'e1'");
    await query(url, "DELETE FROM face_identities WHERE id = 'f1'");
    const changes = await query<{ face_seq: string }>(url, "SELECT face_seq::text FROM face_index_changes ORDER BY id");
    expect(changes.map((c) => c.face_seq)).toEqual([face!.seq, face!.seq, face!.seq]); // code set, unlink, delete
  });

  it("a gallery stored in clear is sealed at the next start, once: templates and codes open to what was stored, the clear copy is gone", async () => {
    const { url, all } = await migratedUpTo("mig-seal-faces", "_seal_face_templates");
    // Two faces as the previous version stored them (unit templates, each with its clear code), one enrolled.
    const templates = [1, 2].map((k) => {
      const raw = Array.from({ length: 1024 }, (_, i) => Math.sin(k * (i + 1)));
      const norm = Math.hypot(...raw);
      return raw.map((v) => Math.fround(v / norm));
    });
    await insertApp(url, "Clear gallery");
    for (const [k, template] of templates.entries()) {
      await query(url, `INSERT INTO face_identities (id, embedding, search_code, model, updated_at)
                        VALUES ('f${k}', '{${template.join(",")}}', '\\x${searchCode(template).toString("hex")}', 'old', now())`);
    }
    await query(url, `INSERT INTO face_enrollments (id, face_id, app_id) VALUES ('e0', 'f0', 'a1')`);

    const lines: string[] = [];
    await migrateDatabase(url, all, (line) => lines.push(line));
    expect(lines).toContain("sealed the templates and search codes of 2 gallery faces");
    const faces = await query<{ id: string; seq: string; template_sealed: Buffer; search_code: Buffer }>(
      url,
      "SELECT id, seq::text, template_sealed, search_code FROM face_identities ORDER BY id",
    );
    expect(faces.map((f) => f.id)).toEqual(["f0", "f1"]);
    for (const [k, face] of faces.entries()) {
      expect(Array.from(openTemplate(face.template_sealed))).toEqual(templates[k]);
      expect(openSearchCode(face.search_code).equals(searchCode(templates[k]!))).toBe(true);
      expect(face.search_code.includes(searchCode(templates[k]!))).toBe(false);
    }
    const columns = await query<{ column_name: string }>(url, "SELECT column_name FROM information_schema.columns WHERE table_name = 'face_identities' ORDER BY 1");
    expect(columns.map((c) => c.column_name)).not.toContain("embedding");
    expect(await query(url, "SELECT face_id FROM face_templates_to_seal")).toEqual([]);
    // The codes changed: the index's change log has both faces, so every instance reloads them.
    const changes = await query<{ face_seq: string }>(url, "SELECT DISTINCT face_seq::text FROM face_index_changes ORDER BY 1");
    expect(changes.map((c) => c.face_seq).sort()).toEqual(faces.map((f) => f.seq).sort());

    // Every later start only finds the emptied table: nothing is sealed again, nothing rewritten.
    const again: string[] = [];
    await migrateDatabase(url, all, (line) => again.push(line));
    expect(again).toEqual([]);
    const after = await query<{ template_sealed: Buffer }>(url, "SELECT template_sealed FROM face_identities ORDER BY id");
    expect(after.map((f) => f.template_sealed.toString("hex"))).toEqual(faces.map((f) => f.template_sealed.toString("hex")));
  });

  it.skipIf(testDatabaseKind() !== "postgres")(
    "two instances migrating together apply each migration once (advisory lock)",
    async () => {
      const url = await freshDatabase("mig-race");
      const reports = await Promise.all([migrateDatabase(url), migrateDatabase(url), migrateDatabase(url)]);
      expect(reports.flatMap((r) => r.applied).sort()).toEqual(names);
      const rows = await query(url, `SELECT migration_name FROM "_prisma_migrations"`);
      expect(rows).toHaveLength(names.length);
    },
  );

  it("npm run db:migrate applies pending migrations and reports them as JSON", async () => {
    const db = await createTestDatabase("mig-cli", { empty: true });
    cleanups.push(() => db.drop());
    const env = { ...db.env, ...(db.kind === "embedded" ? { DATABASE_URL: "" } : {}) };
    const first = await runScript("bin/migrate.ts", [], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ applied: names, alreadyApplied: [] });
    const second = await runScript("bin/migrate.ts", [], env);
    expect(JSON.parse(second.stdout)).toEqual({ applied: [], alreadyApplied: names });
  });
});
