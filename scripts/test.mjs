// `npm test`: builds the production app once, then runs every test (unit,
// integration against the real server, CLI). The last line printed is
// `N passed, N failed[, N skipped]`. Arguments go to vitest
// (e.g. `npm test -- tests/unit`). SKIP_BUILD=1 reuses an existing build;
// only unit tests named (`npm test -- tests/unit/x.test.ts`, or
// `npm run test:unit`) build nothing and start no server.
import { spawn, spawnSync } from "node:child_process";

const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", NEXT_TELEMETRY_DISABLED: "1" };
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith("-"));
const unitOnly = files.length > 0 && files.every((f) => f.replace(/^\.\//, "").startsWith("tests/unit"));
if (unitOnly) args.push("--project", "unit");

if (!process.env.SKIP_BUILD && !unitOnly) {
  const build = spawnSync(npx, ["next", "build"], { stdio: ["ignore", "pipe", "pipe"], env, encoding: "utf8" });
  if (build.status !== 0) {
    process.stdout.write(build.stdout ?? "");
    process.stderr.write(build.stderr ?? "");
    process.stdout.write("\nnext build failed\n0 passed, 1 failed\n");
    process.exit(1);
  }
  process.stdout.write("next build: ok\n");
}

// Output is passed through as it comes. If vitest fails outside any test (a
// global setup error, a file that does not load) its summary may read
// "0 failed": then a corrected closing line is printed so CI sees the failure.
const child = spawn(npx, ["vitest", "run", ...args], { stdio: ["ignore", "pipe", "inherit"], env });
let lastSummary = "";
let pending = "";
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  pending += chunk;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) if (/^\d+ passed, \d+ failed/.test(line)) lastSummary = line;
});
child.on("close", (code) => {
  if (/^\d+ passed, \d+ failed/.test(pending)) lastSummary = pending;
  const status = code ?? 1;
  const [, passed = "0", failed = "0"] = lastSummary.match(/^(\d+) passed, (\d+) failed/) ?? [];
  if (status !== 0 && Number(failed) === 0) {
    process.stdout.write(`\nvitest exited with ${status} outside any test\n${passed} passed, 1 failed\n`);
  }
  process.exit(status);
});
