import type { RanStatus } from "@/lib/contract-vocabulary";

/**
 * Face match: `passed` at or above the threshold; `review` within the
 * review margin under it (borderline: a human looks); `failed` below.
 */
export function faceMatchStatus(similarity: number, settings: { threshold: number; review_margin: number }): RanStatus {
  if (similarity >= settings.threshold) return "passed";
  // A hair of tolerance so 0.61 - 0.08 includes 0.53 despite binary floating point.
  if (similarity >= settings.threshold - settings.review_margin - 1e-9) return "review";
  return "failed";
}
