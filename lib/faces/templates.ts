import { cosineSimilarity } from "@/lib/vision/pool";

/**
 * A face template: the unit-length embedding of one face, the model that
 * made it and the SHA-256 of the image it came from (for the audit trail).
 */
export type FaceTemplate = { embedding: number[]; model: string; source_sha256: string };

export function normalise(embedding: readonly number[]): number[] {
  const norm = Math.sqrt(embedding.reduce((sum, v) => sum + v * v, 0));
  return norm ? embedding.map((v) => v / norm) : [...embedding];
}

export function templateSimilarity(a: FaceTemplate, b: FaceTemplate): number {
  return cosineSimilarity(a.embedding, b.embedding);
}

/** Similarities are reported to 4 decimals. */
export function roundScore(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
