// The folder of an installed package, for the vision worker's modules: the
// files they load (models, .wasm, a native binding) sit behind exports maps
// that hide them from require.resolve.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

export function packageDir(name) {
  for (const base of require.resolve.paths(name) ?? []) {
    const dir = path.join(base, name);
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
  }
  throw new Error(`package ${name} is not installed`);
}
