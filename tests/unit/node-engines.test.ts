import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * The Node version this service states (package.json `engines.node`, the
 * README's requirements) agrees with what its dependencies accept: every
 * installed package of package-lock.json that is not optional accepts the
 * Node running the suite (else `npm install` prints EBADENGINE), and every
 * production package accepts every Node the `engines` range admits.
 */
type LockedPackage = { version?: string; engines?: { node?: string } | string[]; optional?: boolean; dev?: boolean; devOptional?: boolean };

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, LockedPackage> };

function nodeRanges(filter: (p: LockedPackage) => boolean): Array<{ name: string; range: string }> {
  return Object.entries(lock.packages)
    .filter(([location, p]) => location !== "" && !p.optional && filter(p))
    .flatMap(([location, p]) => {
      const range = Array.isArray(p.engines) ? undefined : p.engines?.node;
      return range ? [{ name: `${location.replace(/^.*node_modules\//, "")}@${p.version ?? "workspace"}`, range }] : [];
    });
}

describe("Node version", () => {
  it("the running Node is one package.json's engines admits", () => {
    expect(semver.satisfies(process.version, pkg.engines.node), `${process.version} vs ${pkg.engines.node}`).toBe(true);
  });

  it("every installed non-optional package accepts the running Node (no EBADENGINE on npm install)", () => {
    const refused = nodeRanges(() => true).filter(({ range }) => !semver.satisfies(process.version, range));
    expect(refused.map(({ name, range }) => `${name} needs node ${range}`)).toEqual([]);
  });

  it("every production package accepts every Node package.json's engines admits", () => {
    const narrower = nodeRanges((p) => !p.dev && !p.devOptional).filter(({ range }) => !semver.subset(pkg.engines.node, range));
    expect(narrower.map(({ name, range }) => `${name} needs node ${range}, engines says ${pkg.engines.node}`)).toEqual([]);
  });

  it("the check refuses a package that needs a newer Node than the running one", () => {
    expect(semver.satisfies("v20.20.2", ">=22")).toBe(false);
    expect(semver.subset("^20.19.0 || >=22.12.0", ">=20.19.0")).toBe(true);
    expect(semver.subset(">=20.9", ">=22")).toBe(false);
  });
});
