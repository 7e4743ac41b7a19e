import { HAMMING_KERNEL_WASM_BASE64 } from "./hamming-kernel-binary";
import { SEARCH_CODE_BYTES } from "./search-code";

/**
 * The Hamming scan at the heart of the 1:N search: the distance from one
 * 128-byte probe code to every code of a block, in WebAssembly with 128-bit
 * SIMD (`i8x16.popcnt`): about 11 ns a code on this project's 2-core
 * machine, a million codes in ~12 ms on one core, against ~70 ms for the
 * best plain-JavaScript popcount. The kernel's text is
 * ./hamming-kernel-source.ts; the server loads it assembled
 * (./hamming-kernel-binary.ts, written by `npm run -s kernel:build` with
 * wabt, the WebAssembly Binary Toolkit, and checked against the text by
 * tests/unit/hamming-kernel.test.ts), so no assembler ships or runs in
 * production.
 *
 * The second function, `estimate`, is the similarity estimate of
 * lib/faces/code-estimate.ts for the codes of a block the scan let
 * through: 128 look-ups a code in the probe's table, summed in four
 * float64 accumulators: 7 to 9 times faster than the same look-ups in
 * JavaScript on this project's 2-core machine.
 *
 * Memory layout (one linear memory, grown in whole blocks):
 *   [0, 128)            the probe code
 *   [128, 128 + 2 * BLOCK_CODES)  the distances of the last scanned block (u16)
 *   [SLOTS_AT, +4 * BLOCK_CODES)  the slots of a block to estimate (u32)
 *   [SUMS_AT, +8 * BLOCK_CODES)   their estimates (f64)
 *   [TABLE_AT, +4 * 128 * 256)    the probe's estimate table (f32)
 *   [BLOCKS_START, ...) blocks of BLOCK_CODES codes each
 */

/** Codes per block: 4,096 x 128 bytes = 512 KiB, eight WebAssembly pages. */
export const BLOCK_CODES = 4096;
const BLOCK_BYTES = BLOCK_CODES * SEARCH_CODE_BYTES;
const PAGE_BYTES = 65_536;
const PROBE_AT = 0;
const DISTANCES_AT = SEARCH_CODE_BYTES;
const SLOTS_AT = 16_384;
const SUMS_AT = SLOTS_AT + 4 * BLOCK_CODES;
const TABLE_AT = PAGE_BYTES;
/** Entries of an estimate table (lib/faces/code-estimate.ts): 256 a code byte. */
export const ESTIMATE_TABLE_LENGTH = SEARCH_CODE_BYTES * 256;
const BLOCKS_START = TABLE_AT + 4 * ESTIMATE_TABLE_LENGTH;

type Kernel = {
  memory: WebAssembly.Memory;
  scan: (probe: number, codes: number, count: number, out: number) => void;
  estimate: (block: number, slots: number, count: number, table: number, out: number) => void;
};

async function assembleKernel(): Promise<Kernel> {
  const instance = await WebAssembly.instantiate(new WebAssembly.Module(Buffer.from(HAMMING_KERNEL_WASM_BASE64, "base64")));
  return instance.exports as unknown as Kernel;
}

/**
 * Blocks of codes in one WebAssembly memory, handed out and taken back by
 * the gallery index (a freed block is reused before the memory grows; a
 * WebAssembly memory never shrinks).
 */
export class CodeArena {
  private readonly free: number[] = [];
  private nextBlock = BLOCKS_START;

  private constructor(private readonly kernel: Kernel) {
    const pages = BLOCKS_START / PAGE_BYTES - kernel.memory.buffer.byteLength / PAGE_BYTES;
    if (pages > 0) kernel.memory.grow(pages);
  }

  static async create(): Promise<CodeArena> {
    return new CodeArena(await assembleKernel());
  }

  /** Bytes of code storage reserved (blocks in use and free). */
  get reservedBytes(): number {
    return this.nextBlock - BLOCKS_START;
  }

  allocateBlock(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    const at = this.nextBlock;
    const missing = at + BLOCK_BYTES - this.kernel.memory.buffer.byteLength;
    if (missing > 0) this.kernel.memory.grow(Math.ceil(missing / PAGE_BYTES));
    this.nextBlock += BLOCK_BYTES;
    return at;
  }

  releaseBlock(block: number) {
    this.free.push(block);
  }

  /** Writes a code into slot `slot` of a block. */
  writeCode(block: number, slot: number, code: Uint8Array) {
    new Uint8Array(this.kernel.memory.buffer, block + slot * SEARCH_CODE_BYTES, SEARCH_CODE_BYTES).set(code);
  }

  /** Copies slot `from` of one block over slot `to` of another (or the same). */
  moveCode(fromBlock: number, from: number, toBlock: number, to: number) {
    const bytes = new Uint8Array(this.kernel.memory.buffer);
    const start = fromBlock + from * SEARCH_CODE_BYTES;
    bytes.copyWithin(toBlock + to * SEARCH_CODE_BYTES, start, start + SEARCH_CODE_BYTES);
  }

  /** Sets the probe for the following `scanBlock` calls. */
  setProbe(code: Uint8Array) {
    new Uint8Array(this.kernel.memory.buffer, PROBE_AT, SEARCH_CODE_BYTES).set(code);
  }

  /** The memory holding the blocks (a view, valid until the memory next grows: while no block is allocated). */
  bytes(): Uint8Array {
    return new Uint8Array(this.kernel.memory.buffer);
  }

  /** Where slot `slot` of a block starts in `bytes()`. */
  codeOffset(block: number, slot: number): number {
    return block + slot * SEARCH_CODE_BYTES;
  }

  /** Distances from the probe to the first `count` codes of a block (a view, valid until the next scan). */
  scanBlock(block: number, count: number): Uint16Array {
    this.kernel.scan(PROBE_AT, block, count, DISTANCES_AT);
    return new Uint16Array(this.kernel.memory.buffer, DISTANCES_AT, count);
  }

  /** Sets the estimate table (ESTIMATE_TABLE_LENGTH entries) for the following `estimateSlots` calls. */
  setEstimateTable(table: Float32Array) {
    if (table.length !== ESTIMATE_TABLE_LENGTH) throw new Error(`an estimate table has ${ESTIMATE_TABLE_LENGTH} entries, not ${table.length}`);
    new Float32Array(this.kernel.memory.buffer, TABLE_AT, ESTIMATE_TABLE_LENGTH).set(table);
  }

  /** Where to write the slots of a block to estimate (at most BLOCK_CODES; a view, valid until the memory grows). */
  slotsToEstimate(): Uint32Array {
    return new Uint32Array(this.kernel.memory.buffer, SLOTS_AT, BLOCK_CODES);
  }

  /** The table's sums for the first `count` slots written to `slotsToEstimate()`, of a block's codes (a view, valid until the next call). */
  estimateSlots(block: number, count: number): Float64Array {
    this.kernel.estimate(block, SLOTS_AT, count, TABLE_AT, SUMS_AT);
    return new Float64Array(this.kernel.memory.buffer, SUMS_AT, count);
  }
}
