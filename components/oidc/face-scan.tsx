"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { CameraPreview, OvalGuide } from "@/components/verify/camera/camera-preview";
import { CameraProblemNotice } from "@/components/verify/camera/camera-problem-notice";
import type { CameraProblem } from "@/components/verify/camera/camera-problems";
import { useCameraStream } from "@/components/verify/camera/use-camera-stream";
import { planBurst, type BurstMoment } from "@/components/verify/liveness/burst-schedule";
import { BurstInstructions } from "@/components/verify/liveness/liveness-step";
import { BurstAborted, runBurst } from "@/components/verify/liveness/run-burst";
import { ColourLight } from "@/components/verify/liveness/colour-light";
import { colourTimeline } from "@/components/verify/liveness/colour-schedule";
import { STRINGS } from "@/lib/accounts/sign-in-strings";
import { HydrationGate } from "@/components/ui/hydration";

/**
 * The face scan of the sign-in page (lib/oidc/face-sign-in.ts): the same
 * camera, challenge timeline and burst as the verification flow's liveness
 * step (components/verify/liveness), sent to the sign-in request's own
 * endpoints with the page's CSRF token. Signed in, the browser goes on to
 * the consent step (for the account page, straight back to it). Its button
 * needs the script: disabled until the page is hydrated (HydrationGate).
 * The server's error messages are written for people and are shown as
 * they are.
 */
type Challenge = {
  challenge_id: string;
  actions: string[];
  instructions: Array<{ action: string; text: string }>;
  frames: { min: number; max: number; recommended: number };
  /** The colour challenge: the screen colour of each frame, shown as in the verification flow. */
  colours: string[];
  colour_settle_ms: number;
  attempts_left: number;
};

type Phase =
  | { kind: "idle" }
  | { kind: "preparing" }
  | { kind: "camera_problem"; problem: CameraProblem }
  | { kind: "running"; challenge: Challenge; moment: BurstMoment | null }
  | { kind: "sending" }
  | { kind: "signed_in" }
  | { kind: "failed"; message: string }
  | { kind: "over"; message: string };

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };

/** No further scan can help: the request's tries are used, or face sign-in is locked for the account. */
const FINAL_CODES = new Set(["too_many_attempts", "verification_soft_locked", "expired"]);

async function call<T>(url: string, init: RequestInit): Promise<Envelope<T>> {
  const res = await fetch(url, { ...init, credentials: "same-origin" });
  try {
    return (await res.json()) as Envelope<T>;
  } catch {
    return { success: false, data: null as T, error: { code: "unavailable", message: STRINGS.face.failed } };
  }
}

/**
 * `endpoint`: where the challenge (`<endpoint>/challenge`) and the burst
 * (`<endpoint>`) go. A success that names a `location` goes there; one
 * that does not shows `doneText` (face activation).
 */
export function FaceScan({ endpoint, csrf, attemptsLeft: initialTries, doneText }: { endpoint: string; csrf: string; attemptsLeft: number; doneText?: string }) {
  const t = useTranslations("verify");
  const s = STRINGS.face;
  const [tries, setTries] = useState(initialTries);
  const [phase, setPhase] = useState<Phase>(initialTries > 0 ? { kind: "idle" } : { kind: "over", message: s.noTries });
  const [light, setLight] = useState<string | null>(null);
  const camera = useCameraStream();
  const { stream, video } = camera;
  const releaseCamera = camera.release;
  const base = endpoint;

  const refused = (error: { code: string; message: string } | undefined, left: number) => {
    setTries(left);
    if (error && FINAL_CODES.has(error.code)) return setPhase({ kind: "over", message: error.message });
    if (left <= 0) return setPhase({ kind: "over", message: error ? `${error.message} ${s.noTries}` : s.noTries });
    setPhase({ kind: "failed", message: error?.message ?? s.failed });
  };

  async function start() {
    const controller = camera.begin();
    setPhase({ kind: "preparing" });
    const opened = await camera.open(controller.signal);
    if (!opened) return;
    if ("problem" in opened) return setPhase({ kind: "camera_problem", problem: opened.problem });
    const { el, playing } = opened;

    const issued = await call<Challenge>(`${base}/challenge`, { method: "POST", headers: { "X-CSRF-Token": csrf } });
    if (!issued.success) {
      releaseCamera();
      return refused(issued.error, issued.error?.code === "too_many_attempts" ? 0 : tries);
    }
    const challenge = issued.data;
    setTries(challenge.attempts_left);
    setPhase({ kind: "running", challenge, moment: null });
    await playing;
    let frames: Blob[];
    try {
      const plan = planBurst(challenge.actions.length, challenge.frames);
      frames = await runBurst({
        video: el,
        plan,
        startedAt: performance.now(),
        signal: controller.signal,
        onMoment: (moment) => setPhase({ kind: "running", challenge, moment }),
        colours: colourTimeline(plan, challenge.colours, challenge.colour_settle_ms),
        onColour: setLight,
      });
    } catch (err) {
      releaseCamera();
      if (err instanceof BurstAborted) return;
      return refused(undefined, challenge.attempts_left);
    }
    releaseCamera();
    setPhase({ kind: "sending" });
    const form = new FormData();
    form.append("challenge_id", challenge.challenge_id);
    frames.forEach((frame, i) => form.append("frames", frame, `frame-${i + 1}.jpg`));
    const judged = await call<{ location?: string }>(base, { method: "POST", headers: { "X-CSRF-Token": csrf }, body: form });
    if (judged.success) {
      setPhase({ kind: "signed_in" });
      if (judged.data.location) window.location.assign(judged.data.location);
      return;
    }
    const reported = (judged.data as { attempts_left?: unknown } | null)?.attempts_left;
    refused(judged.error, typeof reported === "number" ? reported : challenge.attempts_left);
  }

  const showCamera = phase.kind === "preparing" || phase.kind === "running";
  return (
    <HydrationGate>
      <div className="mt-6" data-testid="face-scan">
        {(phase.kind === "idle" || phase.kind === "failed" || phase.kind === "camera_problem") && (
          <>
            {phase.kind === "failed" && (
              <div role="alert" className="mb-4 rounded-lg border border-red-300 bg-red-50 p-4 text-red-950">
                {phase.message}
              </div>
            )}
            {phase.kind === "camera_problem" && <CameraProblemNotice problem={phase.problem} />}
            <p className="mb-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="colour-warning">
              {t("liveness.colourLight.scanWarning")}
            </p>
            <p className="text-slate-700">{s.triesLeft(tries)}</p>
            <button
              type="button"
              onClick={start}
              className="mt-4 inline-flex min-h-12 w-full items-center justify-center rounded-lg bg-blue-700 px-5 py-3 text-base font-semibold text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700 sm:w-auto"
            >
              {phase.kind === "idle" ? s.start : s.tryAgain}
            </button>
          </>
        )}
        {showCamera && <ColourLight colour={light} />}
        {showCamera && (
          <div className="relative z-50">
            <BurstInstructions challenge={phase.kind === "running" ? phase.challenge : null} moment={phase.kind === "running" ? phase.moment : null} />
            <div className="mt-3">
              <CameraPreview ref={video} stream={stream} mirrored>
                <OvalGuide label={t("liveness.ovalLabel")} />
              </CameraPreview>
            </div>
          </div>
        )}
        {phase.kind === "sending" && (
          <p role="status" className="text-slate-900">
            {s.checking}
          </p>
        )}
        {phase.kind === "signed_in" && (
          <p role="status" className="font-semibold text-green-900">
            {doneText ?? s.signedIn}
          </p>
        )}
        {phase.kind === "over" && (
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-950">
            {phase.message}
          </div>
        )}
      </div>
    </HydrationGate>
  );
}
