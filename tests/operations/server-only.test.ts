import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Server-only modules (docs/architecture.md "Server-only modules"): the
 * database, the keys and secrets, and the configuration start with
 * `import "server-only"`. Next resolves that name itself: empty in server
 * code, a build error in a Client Component's graph; every other process
 * (the CLI and the worker under tsx, vitest) gets the empty module of
 * packages/server-only.
 */
const root = path.join(__dirname, "../..");
const NEXT = path.join(root, "node_modules", "next", "dist", "bin", "next");

/** What must never reach a browser bundle: the database, keys and secrets, the configuration (it holds them). */
export const SERVER_ONLY = [
  ...fs.readdirSync(path.join(root, "lib/db")).map((f) => `lib/db/${f}`),
  ...fs.readdirSync(path.join(root, "lib/crypto")).map((f) => `lib/crypto/${f}`),
  "lib/config/env.ts",
  "lib/redis/client.ts",
].filter((f) => f.endsWith(".ts"));

describe("server-only modules", () => {
  it("the database, keys and secrets and the configuration are marked, before any other import", () => {
    const unmarked = SERVER_ONLY.filter((file) => {
      const firstImport = fs.readFileSync(path.join(root, file), "utf8").match(/^import .*$/m)?.[0];
      return firstImport !== 'import "server-only";';
    });
    expect(unmarked).toEqual([]);
  });

  it("outside Next (this test process, the CLI and worker under tsx) the marker is an empty module", async () => {
    await expect(import("server-only")).resolves.toBeDefined();
    const cli = spawnSync(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "-e", 'import("@/lib/crypto/secrets").then((m) => console.log(typeof m.hashSecret))'], {
      cwd: root,
      encoding: "utf8",
    });
    expect(cli.stdout.trim()).toBe("function");
  });

  it(
    "a Client Component that imports a marked module fails the build, with Next's server-only error",
    () => {
      // A minimal app beside the project (its node_modules, its lib/): one page rendering one Client Component.
      const dir = fs.mkdtempSync(path.join(root, ".server-only-probe-"));
      try {
        const write = (file: string, text: string) => fs.writeFileSync(path.join(dir, file), text);
        fs.mkdirSync(path.join(dir, "app"));
        write("app/layout.tsx", "export default function Layout({ children }: { children: React.ReactNode }) {\n  return <html><body>{children}</body></html>;\n}\n");
        write("app/page.tsx", 'import { Probe } from "./probe";\nexport default function Page() {\n  return <Probe />;\n}\n');
        write(
          "app/probe.tsx",
          '"use client";\nimport { hashSecret } from "../../lib/crypto/secrets";\nexport function Probe() {\n  return <p>{typeof hashSecret}</p>;\n}\n',
        );
        const build = spawnSync(process.execPath, [NEXT, "build", dir], {
          cwd: root,
          encoding: "utf8",
          env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", SVC_NEXT_DIST_DIR: "" },
        });
        const output = `${build.stdout}\n${build.stderr}`;
        expect(build.status, output).not.toBe(0);
        expect(output).toContain("'server-only' cannot be imported from a Client Component module");
        expect(output).toMatch(/lib\/crypto\/secrets\.ts.*\[Client Component Browser\]/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
