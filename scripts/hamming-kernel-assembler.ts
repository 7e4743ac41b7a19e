import { KERNEL_WAT } from "../lib/faces/hamming-kernel-source";

/** The kernel's text assembled by wabt (a development dependency): the bytes the server must ship. */
export async function assembleHammingKernel(): Promise<Uint8Array> {
  const { default: loadWabt } = await import("wabt");
  const wabt = await loadWabt();
  const parsed = wabt.parseWat("hamming-scan.wat", KERNEL_WAT, { simd: true });
  try {
    return new Uint8Array(parsed.toBinary({}).buffer);
  } finally {
    parsed.destroy();
  }
}
