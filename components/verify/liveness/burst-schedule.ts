/**
 * When the liveness step shows each instruction and when it takes each
 * frame of the burst, relative to the moment the camera picture starts
 * (the video's `playing` event, once the challenge arrived). Pure data, no
 * DOM: the page runs it. A person (and the browser tests' camera person,
 * tests/browser/camera-person.ts) simply follows the cue on screen: each
 * frame is taken well after its cue appeared, leaving time to react.
 *
 *   ready   [0, READY_MS)       "look straight at the camera", countdown;
 *                               one BASELINE frame (frontal) near its end
 *   action i [READY_MS + i*ACTION_MS, +ACTION_MS)
 *           first part  "do":   cue "Turn your head to your left" / "Close your eyes";
 *                               the MOVE frame(s)
 *           second part "back": cue "Now back to the centre" / "Open your eyes";
 *                               the RETURN frame
 *
 * The server wants 3 to 8 frames and recommends a number (the workflow's
 * `liveness.frames`, default 7): one baseline plus, per action, one move
 * frame and one return frame (5 frames for 2 actions, 7 for 3); extra frames
 * go to the move part. The return frame is always taken when the maximum
 * allows it, even above the recommendation: the verdict looks for each
 * action from where the previous one came back to the centre, so without it
 * only an opposite turn or look could follow a movement. Only a maximum too
 * small for it (fewer than 1 + 2 per action) leaves only the move frame.
 *
 * Timing: 3 s to get ready, then 3 s per action (the "do" cue for 1.65 s,
 * the move frame at 1.35 s, the return frame at 2.76 s): 12 s of camera for 3
 * actions, well inside the challenge's 60 s (lib/liveness/challenges.ts;
 * the camera is open before the challenge is asked for), which also covers
 * encoding and uploading the frames on a slow connection.
 */
export const READY_MS = 3000;
export const ACTION_MS = 3000;
/** The baseline frame, as a fraction of the ready phase. */
const BASELINE_AT = 0.85;
/** Where the "do" cue ends and the "back" cue starts, as a fraction of an action's window. */
export const RETURN_CUE_AT = 0.55;
/** Frame positions within an action's window, by frames per action. */
const ACTION_FRAME_AT: Record<number, Array<{ at: number; pose: "move" | "return" }>> = {
  1: [{ at: 0.45, pose: "move" }],
  2: [
    { at: 0.45, pose: "move" },
    { at: 0.92, pose: "return" },
  ],
  3: [
    { at: 0.33, pose: "move" },
    { at: 0.47, pose: "move" },
    { at: 0.92, pose: "return" },
  ],
};

export type PlannedFrame = {
  /** Milliseconds after the picture started. */
  atMs: number;
  /** `baseline` (frontal), or which action's window the frame belongs to. */
  phase: "baseline" | { action: number };
  /** What the person should be doing at that moment. */
  pose: "frontal" | "move" | "return";
};

export type BurstPlan = { totalMs: number; actions: number; frames: PlannedFrame[] };

export function framesPerAction(actions: number, frames: { min: number; max: number; recommended: number }): number {
  const byRecommendation = Math.floor((frames.recommended - 1) / actions);
  const byMaximum = Math.floor((frames.max - 1) / actions);
  let perAction = Math.max(1, Math.min(3, Math.max(2, byRecommendation), byMaximum));
  // Never fewer frames than the server's minimum.
  while (1 + perAction * actions < frames.min && perAction < 3) perAction++;
  return perAction;
}

export function planBurst(actions: number, frames: { min: number; max: number; recommended: number }): BurstPlan {
  const perAction = framesPerAction(actions, frames);
  const planned: PlannedFrame[] = [{ atMs: Math.round(READY_MS * BASELINE_AT), phase: "baseline", pose: "frontal" }];
  for (let i = 0; i < actions; i++) {
    const start = READY_MS + i * ACTION_MS;
    for (const f of ACTION_FRAME_AT[perAction]!) planned.push({ atMs: Math.round(start + f.at * ACTION_MS), phase: { action: i }, pose: f.pose });
  }
  return { totalMs: READY_MS + actions * ACTION_MS, actions, frames: planned };
}

export type BurstMoment =
  | { phase: "ready"; secondsLeft: number }
  | { phase: "action"; action: number; cue: "do" | "back"; secondsLeft: number }
  | { phase: "done" };

/** What the page shows `elapsedMs` after the picture started. */
export function momentAt(plan: BurstPlan, elapsedMs: number): BurstMoment {
  if (elapsedMs < READY_MS) return { phase: "ready", secondsLeft: Math.ceil((READY_MS - elapsedMs) / 1000) };
  const intoActions = elapsedMs - READY_MS;
  const action = Math.floor(intoActions / ACTION_MS);
  if (action >= plan.actions) return { phase: "done" };
  const within = intoActions - action * ACTION_MS;
  return {
    phase: "action",
    action,
    cue: within < RETURN_CUE_AT * ACTION_MS ? "do" : "back",
    secondsLeft: Math.ceil((ACTION_MS - within) / 1000),
  };
}
