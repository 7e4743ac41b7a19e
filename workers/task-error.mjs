// How a vision task's failure is told to the pool (lib/vision/pool.ts): an
// image that does not decode is the caller's bad input (`bad_input`, the
// route answers 422 invalid_image), anything else is the engine's failure
// (502 *_unavailable). Neither drops the models a thread has loaded.

/** Thrown when image bytes do not decode (damaged, cut short, not an image). */
export class BadImageError extends Error {}

/** Runs a sharp decode; its failure becomes a BadImageError. */
export async function decodeImage(work) {
  try {
    return await work();
  } catch (err) {
    throw new BadImageError(`the image does not decode: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The task's answer for a failure: { ok: false, error, bad_input }. */
export function taskError(err) {
  return { ok: false, error: err instanceof Error ? err.message : String(err), bad_input: err instanceof BadImageError };
}
