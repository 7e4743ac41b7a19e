import { readFrontText } from "@/lib/vision/pool";
import { checkFrontConsistency, type Consistency, type ZoneValues } from "./document-consistency";

export type FrontRead = {
  /** What the OCR read, for the comparison once the barcode or MRZ is known. */
  lines: Parameters<typeof checkFrontConsistency>[0];
  variant: string | null;
  model: string | null;
  ms: number;
  /** The OCR task failed (the comparison then counts the front as unreadable). */
  error: string | null;
};

/** OCR of a card's front (vision worker, English model, offline). Never throws: a failure is an unreadable front. */
export async function readFront(image: Uint8Array): Promise<FrontRead> {
  const started = performance.now();
  try {
    const text = await readFrontText(image);
    return { lines: text.lines, variant: text.variant, model: text.model, ms: Math.round(performance.now() - started), error: null };
  } catch (err) {
    return { lines: [], variant: null, model: null, ms: Math.round(performance.now() - started), error: err instanceof Error ? err.message : String(err) };
  }
}

/** The front's printed fields against the barcode's or MRZ's. */
export function frontConsistency(front: FrontRead, zone: ZoneValues, today: Date): Consistency & { variant: string | null } {
  return { ...checkFrontConsistency(front.lines, zone, today), variant: front.variant };
}
