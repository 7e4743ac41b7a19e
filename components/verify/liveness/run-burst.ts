import { captureFrame } from "../camera/capture-frame";
import { momentAt, type BurstMoment, type BurstPlan } from "./burst-schedule";
import type { ColourChange } from "./colour-schedule";

/** Frames go to the server at most this size (long side): plenty for a face, small to upload. */
const FRAME_MAX_SIDE = 960;

export class BurstAborted extends Error {
  constructor() {
    super("The burst was stopped");
    this.name = "BurstAborted";
  }
}

/**
 * Runs a burst plan against a playing camera video: reports the moment
 * (instruction cue and countdown) as it changes, takes each frame at its
 * planned time counted from `startedAt` (a performance.now() value: when the
 * picture started), and resolves with the JPEG frames in order. Each frame's
 * time is absolute, so a late timer never shifts the ones after it. `signal`
 * stops it (BurstAborted). `colours` (colour-schedule.ts) are reported to
 * `onColour` at their times, and the light is switched off (null) however
 * the burst ends.
 */
export function runBurst(options: {
  video: HTMLVideoElement;
  plan: BurstPlan;
  startedAt: number;
  signal: AbortSignal;
  onMoment: (moment: BurstMoment) => void;
  colours?: ColourChange[];
  onColour?: (colour: string | null) => void;
}): Promise<Blob[]> {
  const { video, plan, startedAt, signal, onMoment, colours = [], onColour } = options;
  return new Promise<Blob[]>((resolve, reject) => {
    if (signal.aborted) return reject(new BurstAborted());
    const timers: number[] = [];
    const encodings: Array<Promise<Blob>> = [];
    let last = "";
    let finished = false;

    const cleanup = () => {
      finished = true;
      timers.forEach((id) => window.clearTimeout(id));
      window.clearInterval(ticker);
      signal.removeEventListener("abort", onAbort);
      if (colours.length) onColour?.(null);
    };
    const onAbort = () => {
      if (finished) return;
      cleanup();
      reject(new BurstAborted());
    };
    signal.addEventListener("abort", onAbort);

    const tick = () => {
      const moment = momentAt(plan, performance.now() - startedAt);
      const key = JSON.stringify(moment);
      if (key !== last) {
        last = key;
        onMoment(moment);
      }
    };
    const ticker = window.setInterval(tick, 100);
    tick();

    for (const change of colours) {
      timers.push(window.setTimeout(() => !finished && onColour?.(change.colour), Math.max(0, startedAt + change.atMs - performance.now())));
    }

    plan.frames.forEach((frame, index) => {
      const delay = Math.max(0, startedAt + frame.atMs - performance.now());
      timers.push(
        window.setTimeout(() => {
          if (finished) return;
          encodings[index] = captureFrame(video, { maxSide: FRAME_MAX_SIDE, quality: 0.9 });
          if (index === plan.frames.length - 1) {
            cleanup();
            Promise.all(encodings).then(resolve, reject);
          }
        }, delay),
      );
    });
  });
}
