// `npm run -s kernel:build`: assembles the Hamming scan's WebAssembly kernel
// (lib/faces/hamming-kernel-source.ts) with wabt and writes the binary the
// server loads (lib/faces/hamming-kernel-binary.ts). Run it after changing the
// kernel's text; tests/unit/hamming-kernel.test.ts fails until you do.
import fs from "node:fs";
import path from "node:path";
import { assembleHammingKernel } from "./hamming-kernel-assembler";

const bytes = await assembleHammingKernel();
const file = path.join(process.cwd(), "lib", "faces", "hamming-kernel-binary.ts");
fs.writeFileSync(
  file,
  `// Written by \`npm run -s kernel:build\` from lib/faces/hamming-kernel-source.ts: do not edit.\n` +
    `/** The Hamming scan's WebAssembly kernel, assembled (${bytes.length} bytes). */\n` +
    `export const HAMMING_KERNEL_WASM_BASE64 =\n  ${JSON.stringify(Buffer.from(bytes).toString("base64"))};\n`,
);
process.stdout.write(`${JSON.stringify({ file: path.relative(process.cwd(), file), bytes: bytes.length })}\n`);
