import { describe, expect, it } from "vitest";
import { HAMMING_KERNEL_WASM_BASE64 } from "@/lib/faces/hamming-kernel-binary";
import { assembleHammingKernel } from "../../scripts/hamming-kernel-assembler";

/** The WebAssembly kernel of the 1:N search ships assembled (lib/faces/hamming-kernel-binary.ts); its text is the source. */
describe("the Hamming kernel", () => {
  it("the shipped binary is exactly the kernel's text assembled by wabt (else: npm run -s kernel:build)", async () => {
    const assembled = Buffer.from(await assembleHammingKernel());
    expect(Buffer.from(HAMMING_KERNEL_WASM_BASE64, "base64").equals(assembled)).toBe(true);
  });

  it("is a valid module that exports the scan, the estimate and its memory", async () => {
    const module = new WebAssembly.Module(Buffer.from(HAMMING_KERNEL_WASM_BASE64, "base64"));
    expect(WebAssembly.Module.exports(module).map((e) => `${e.kind} ${e.name}`).sort()).toEqual(["function estimate", "function scan", "memory memory"]);
  });
});
