import type { SimilarityEstimator } from "./code-estimate";
import { BLOCK_CODES, type CodeArena } from "./hamming-scan";

/** A gallery face found by the Hamming scan: its `face_identities.seq` and distance. */
export type CodeCandidate = { seq: number; distance: number };
/** A candidate with its similarity estimated from its code (lib/faces/code-estimate.ts). */
export type EstimatedCandidate = CodeCandidate & { estimate: number };

/** One project's codes: dense blocks, a face's slot found through `slotOf`. */
type ProjectCodes = { blocks: number[]; seqs: Float64Array[]; size: number; slotOf: Map<number, number> };

/**
 * Every project's search codes in memory, in one CodeArena. A face (by its
 * `seq`) is in a project's set while it has an active enrollment there.
 * Adding replaces a face's code in place; removing moves the project's last
 * code into the hole, so a scan only ever reads live codes.
 */
export class CodeGalleries {
  private readonly projects = new Map<string, ProjectCodes>();

  constructor(private readonly arena: CodeArena) {}

  /** Faces held, over all projects (a face enrolled in two projects counts twice). */
  get size(): number {
    let total = 0;
    for (const project of this.projects.values()) total += project.size;
    return total;
  }

  get reservedBytes(): number {
    return this.arena.reservedBytes;
  }

  clear() {
    for (const project of this.projects.values()) for (const block of project.blocks) this.arena.releaseBlock(block);
    this.projects.clear();
  }

  put(projectId: string, seq: number, code: Uint8Array) {
    let project = this.projects.get(projectId);
    if (!project) {
      project = { blocks: [], seqs: [], size: 0, slotOf: new Map() };
      this.projects.set(projectId, project);
    }
    const existing = project.slotOf.get(seq);
    if (existing !== undefined) {
      this.arena.writeCode(project.blocks[Math.floor(existing / BLOCK_CODES)]!, existing % BLOCK_CODES, code);
      return;
    }
    const slot = project.size;
    const blockIndex = Math.floor(slot / BLOCK_CODES);
    if (blockIndex === project.blocks.length) {
      project.blocks.push(this.arena.allocateBlock());
      project.seqs.push(new Float64Array(BLOCK_CODES));
    }
    this.arena.writeCode(project.blocks[blockIndex]!, slot % BLOCK_CODES, code);
    project.seqs[blockIndex]![slot % BLOCK_CODES] = seq;
    project.slotOf.set(seq, slot);
    project.size++;
  }

  /** Removes a face from one project; false when it was not there. */
  remove(projectId: string, seq: number): boolean {
    const project = this.projects.get(projectId);
    const slot = project?.slotOf.get(seq);
    if (!project || slot === undefined) return false;
    const last = project.size - 1;
    if (slot !== last) {
      const lastBlock = Math.floor(last / BLOCK_CODES);
      const lastSeq = project.seqs[lastBlock]![last % BLOCK_CODES]!;
      const block = Math.floor(slot / BLOCK_CODES);
      this.arena.moveCode(project.blocks[lastBlock]!, last % BLOCK_CODES, project.blocks[block]!, slot % BLOCK_CODES);
      project.seqs[block]![slot % BLOCK_CODES] = lastSeq;
      project.slotOf.set(lastSeq, slot);
    }
    project.slotOf.delete(seq);
    project.size--;
    if (project.size % BLOCK_CODES === 0) {
      this.arena.releaseBlock(project.blocks.pop()!);
      project.seqs.pop();
    }
    if (project.size === 0) this.projects.delete(projectId);
    return true;
  }

  /** Removes a face from every project. */
  removeEverywhere(seq: number) {
    for (const projectId of [...this.projects.keys()]) this.remove(projectId, seq);
  }

  /**
   * The faces to re-score exactly, in one exact Hamming pass over the
   * project's codes: every face within `radius` whose code's estimated
   * similarity is at least `floor` (however many there are), and the
   * `atLeast` nearest in Hamming distance whatever their estimate, most
   * similar estimate first.
   */
  candidates(projectId: string, probe: Uint8Array, radius: number, estimator: SimilarityEstimator, floor: number, atLeast: number): EstimatedCandidate[] {
    const project = this.projects.get(projectId);
    if (!project) return [];
    const found: EstimatedCandidate[] = [];
    const nearest = atLeast > 0 ? new BoundedMaxHeap(atLeast) : null;
    this.arena.setProbe(probe);
    this.arena.setEstimateTable(estimator.table);
    const slots = this.arena.slotsToEstimate();
    const inside = new Uint16Array(BLOCK_CODES);
    for (let b = 0; b < project.blocks.length; b++) {
      const block = project.blocks[b]!;
      const count = Math.min(BLOCK_CODES, project.size - b * BLOCK_CODES);
      const distances = this.arena.scanBlock(block, count);
      let within = 0;
      for (let i = 0; i < count; i++) {
        const distance = distances[i]!;
        if (nearest?.accepts(distance)) nearest.push(b * BLOCK_CODES + i, distance);
        if (distance <= radius) {
          slots[within] = i;
          inside[within++] = distance;
        }
      }
      // The estimates of the faces within the radius, in the kernel.
      const estimates = this.arena.estimateSlots(block, within);
      const seqs = project.seqs[b]!;
      for (let k = 0; k < within; k++) {
        if (estimates[k]! >= floor) found.push({ seq: seqs[slots[k]!]!, distance: inside[k]!, estimate: estimates[k]! });
      }
    }
    const bytes = this.arena.bytes();
    const taken = new Set(found.map((c) => c.seq));
    for (const { seq: slot, distance } of nearest?.sorted() ?? []) {
      const block = Math.floor(slot / BLOCK_CODES);
      const seq = project.seqs[block]![slot % BLOCK_CODES]!;
      if (taken.has(seq)) continue;
      found.push({ seq, distance, estimate: estimator.estimate(bytes, this.arena.codeOffset(project.blocks[block]!, slot % BLOCK_CODES)) });
    }
    return found.sort((x, y) => y.estimate - x.estimate || x.seq - y.seq);
  }

  /**
   * The project's faces nearest to the probe code: every face within
   * `radius` and at least the `atLeast` nearest, at most `limit`, nearest
   * first. One exact Hamming pass over the project's codes; a bounded
   * max-heap keeps the nearest `limit`.
   */
  nearest(projectId: string, probe: Uint8Array, radius: number, atLeast: number, limit: number): CodeCandidate[] {
    const project = this.projects.get(projectId);
    if (!project || limit <= 0) return [];
    const heap = new BoundedMaxHeap(limit);
    this.arena.setProbe(probe);
    for (let b = 0; b < project.blocks.length; b++) {
      const count = Math.min(BLOCK_CODES, project.size - b * BLOCK_CODES);
      const distances = this.arena.scanBlock(project.blocks[b]!, count);
      const seqs = project.seqs[b]!;
      for (let i = 0; i < count; i++) {
        const distance = distances[i]!;
        if (heap.accepts(distance)) heap.push(seqs[i]!, distance);
      }
    }
    return heap.sorted().filter((c, rank) => c.distance <= radius || rank < atLeast);
  }
}

/** The `capacity` smallest distances seen, as a max-heap on distance. */
class BoundedMaxHeap {
  private readonly seqs: Float64Array;
  private readonly distances: Uint16Array;
  private length = 0;

  constructor(private readonly capacity: number) {
    this.seqs = new Float64Array(capacity);
    this.distances = new Uint16Array(capacity);
  }

  accepts(distance: number): boolean {
    return this.length < this.capacity || distance < this.distances[0]!;
  }

  push(seq: number, distance: number) {
    if (this.length < this.capacity) {
      let i = this.length++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.distances[parent]! >= distance) break;
        this.seqs[i] = this.seqs[parent]!;
        this.distances[i] = this.distances[parent]!;
        i = parent;
      }
      this.seqs[i] = seq;
      this.distances[i] = distance;
      return;
    }
    // Replace the largest (the root) and sift down.
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.length) break;
      const right = left + 1;
      const child = right < this.length && this.distances[right]! > this.distances[left]! ? right : left;
      if (this.distances[child]! <= distance) break;
      this.seqs[i] = this.seqs[child]!;
      this.distances[i] = this.distances[child]!;
      i = child;
    }
    this.seqs[i] = seq;
    this.distances[i] = distance;
  }

  sorted(): CodeCandidate[] {
    const out: CodeCandidate[] = [];
    for (let i = 0; i < this.length; i++) out.push({ seq: this.seqs[i]!, distance: this.distances[i]! });
    return out.sort((a, b) => a.distance - b.distance || a.seq - b.seq);
  }
}
