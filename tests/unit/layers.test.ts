import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layers of lib/ (docs/architecture.md "Layers inside lib/";
 * .dependency-cruiser.cjs holds the rules). What already broke a rule when
 * the rules were written is listed in .dependency-cruiser-known-violations.json;
 * the list may only shrink.
 */
const root = path.join(__dirname, "../..");
const SOURCES = ["lib", "app", "components", "bin", "workers"];

type Violation = { type: string; from: string; to: string; rule: { name: string } };
const key = (v: Violation) => `${v.rule.name}: ${v.from} -> ${v.to}`;

function cruise(config = ".dependency-cruiser.cjs", sources = SOURCES): Violation[] {
  const out = execFileSync(process.execPath, [path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"), ...sources, "--config", config, "--output-type", "json"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

const known = (JSON.parse(fs.readFileSync(path.join(root, ".dependency-cruiser-known-violations.json"), "utf8")) as Violation[]).map(key);

describe("the layers of lib/", () => {
  const found = cruise().map(key);

  it("no import breaks a rule that it did not already break (new ones: fix the import, never add them to the list)", () => {
    expect(found.filter((v) => !known.includes(v))).toEqual([]);
  });

  it("the list of known violations only shrinks: a fixed one leaves it (npm run -s layers:baseline)", () => {
    expect(known.filter((v) => !found.includes(v))).toEqual([]);
  });

  it("no file reaches itself through its imports, and lib/ never imports a page", () => {
    expect(known.filter((v) => v.startsWith("no-circular:") || v.startsWith("lib-imports-no-page:") || v.startsWith("domains-import-no-surface:"))).toEqual([]);
  });

  it("the rules catch what they name: a platform module importing a domain, and two folders importing each other", () => {
    const dir = fs.mkdtempSync(path.join(root, ".layers-probe-"));
    const rel = path.relative(root, dir);
    try {
      // A copy of the layout in miniature, checked by the project's own rules rewritten to its folder.
      const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
      };
      write("lib/db/client.ts", 'import { openSession } from "../sessions/open";\nexport const client = openSession;\n');
      write("lib/sessions/open.ts", 'import { score } from "../faces/score";\nexport const openSession = score;\n');
      write("lib/faces/score.ts", 'import { openSession } from "../sessions/open";\nexport const score = () => openSession;\n');
      const config = fs.readFileSync(path.join(root, ".dependency-cruiser.cjs"), "utf8").replaceAll("^lib/", `^${rel}/lib/`).replace("^(lib|", `^${rel}/(lib|`).replace('tsConfig: { fileName: "tsconfig.json" },', "");
      write("probe.cjs", config);
      const violations = cruise(`${rel}/probe.cjs`, [`${rel}/lib`]).map((v) => `${v.rule.name}: ${v.from.slice(rel.length + 1)} -> ${v.to.slice(rel.length + 1)}`);
      expect(violations).toEqual(
        expect.arrayContaining([
          "platform-imports-no-domain: lib/db/client.ts -> lib/sessions/open.ts",
          "no-circular: lib/faces/score.ts -> lib/sessions/open.ts",
          "no-folder-cycles: lib/faces -> lib/sessions",
        ]),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
