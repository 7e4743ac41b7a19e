import { MIN_FACE_SCORE } from "@/lib/faces/single-face";
import { analyseFaces } from "@/lib/vision/pool";
import type { DocumentPortrait } from "./document-reading";

export type PortraitSearch = {
  portrait: DocumentPortrait | null;
  /** Why there is no portrait: no face at all, or the largest face is not clear enough to compare. */
  problem: "portrait_not_found" | "portrait_unclear" | null;
  model: string;
  ms: number;
};

/**
 * The document's portrait: the largest face on the image (a card's small
 * "ghost" copy of the portrait, or a face in the background, is smaller).
 * It must carry an embedding and a trusted detector score; a smaller face is
 * never taken instead.
 */
export async function findPortrait(image: Uint8Array): Promise<PortraitSearch> {
  const started = performance.now();
  const analysis = await analyseFaces(image);
  const ms = Math.round(performance.now() - started);
  const [largest] = [...analysis.faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  if (!largest) return { portrait: null, problem: "portrait_not_found", model: analysis.model, ms };
  if (!largest.embedding || largest.score < MIN_FACE_SCORE) return { portrait: null, problem: "portrait_unclear", model: analysis.model, ms };
  return { portrait: { embedding: largest.embedding, score: largest.score, box: largest.box }, problem: null, model: analysis.model, ms };
}
