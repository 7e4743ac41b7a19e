import type { BurstPlan } from "./burst-schedule";

/**
 * When the screen shows each colour of the colour challenge (docs/hosted-flow.md
 * "Liveness: the colour challenge"), following the burst's frame schedule
 * (burst-schedule.ts). Pure data, no DOM: run-burst.ts runs it.
 *
 * Frame k is taken under colour k. Colour 0 comes on `settleMs` before the
 * first frame; colour k+1 replaces colour k right after frame k is taken
 * (at least `settleMs` before frame k+1: the camera shows light 100-250 ms
 * late, so a frame taken sooner would still show the previous colour); the
 * light goes off right after the last frame. The frames of the schedule are
 * at least 420 ms apart, so the colour changes less than 3 times a second
 * (the WCAG general flash limit).
 */
export type ColourChange = { atMs: number; colour: string | null };

/** Time between a frame's capture and the next colour, so the capture's drawImage has happened first. */
const AFTER_FRAME_MS = 20;

export function colourTimeline(plan: BurstPlan, colours: readonly string[], settleMs: number): ColourChange[] {
  if (colours.length === 0 || plan.frames.length === 0) return [];
  const frames = plan.frames;
  if (colours.length < frames.length) throw new Error(`${colours.length} colours for ${frames.length} frames`);
  const changes: ColourChange[] = [{ atMs: Math.max(0, frames[0]!.atMs - settleMs), colour: colours[0]! }];
  frames.forEach((frame, k) => {
    const next = frames[k + 1];
    if (next && next.atMs - frame.atMs - AFTER_FRAME_MS < settleMs) throw new Error(`Frames ${k + 1} and ${k + 2} are too close for the colour to settle`);
    changes.push({ atMs: frame.atMs + AFTER_FRAME_MS, colour: next ? colours[k + 1]! : null });
  });
  return changes;
}
