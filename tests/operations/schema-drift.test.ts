import { execFile } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../support/server";

/**
 * `npm run db:diff -- --check`: schema.prisma has no change that a
 * migration does not make. The tool diffs on a shadow database of its own,
 * whatever database the suite uses, so this runs once (the migrations
 * themselves are applied and compared on both databases in
 * tests/integration/migrations.test.ts).
 */
it("schema.prisma has no change without a migration (npm run db:diff -- --check)", async () => {
  const tsx = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(process.execPath, [tsx, "bin/db-diff.ts", "--check"], { cwd: ROOT, env }, (err, _stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
    ),
  );
  expect(result.code, result.stderr).toBe(0);
}, 120_000);
