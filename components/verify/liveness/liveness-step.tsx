"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { FlowApiError, isSessionProblem } from "../api/flow-api";
import type { Challenge, LivenessInput } from "../api/types";
import { CameraPreview, OvalGuide } from "../camera/camera-preview";
import { CameraProblemNotice } from "../camera/camera-problem-notice";
import type { CameraProblem } from "../camera/camera-problems";
import { useCameraStream } from "../camera/use-camera-stream";
import { genericErrorMessage } from "../flow/api-error-message";
import type { StepProps } from "../flow/step-props";
import type { VerifyTranslator } from "../i18n";
import { Actions, Button } from "../ui/button";
import { LiveStatus, Notice, Spinner } from "../ui/notice";
import { StepHeading } from "../ui/step-heading";
import { planBurst, type BurstMoment } from "./burst-schedule";
import { BurstAborted, runBurst } from "./run-burst";
import { ColourLight, ColourLightWarning } from "./colour-light";
import { colourTimeline } from "./colour-schedule";

/**
 * The liveness step. Start opens the front camera, then asks the server for
 * a challenge (a random sequence of head movements) and, counted from the
 * moment both the picture and the challenge are there, shows each
 * instruction in turn with a countdown while it takes the burst's frames
 * (burst-schedule.ts). The camera is switched off as soon as the frames are
 * taken; they go to the server, which judges them. Every challenge is one of
 * the workflow's `max_attempts` tries, used or not (docs/hosted-flow.md "The checks"): the
 * camera opens first so that a camera problem costs no try; Stop abandons
 * the current challenge, and so uses its try.
 *
 * The colour challenge (docs/hosted-flow.md "Liveness: the colour challenge"): while the
 * frames are taken the screen shows the challenge's colours (colour-light.tsx),
 * after a warning; "I can't look at flashing colours" asks for a challenge
 * without colours, whose result goes to a person's review.
 */
type Phase =
  | { kind: "intro"; note?: string }
  | { kind: "preparing" }
  | { kind: "camera_problem"; problem: CameraProblem }
  | { kind: "running"; challenge: Challenge; moment: BurstMoment | null }
  | { kind: "sending" }
  | { kind: "passed" }
  | { kind: "failed"; reason: string }
  | { kind: "review" }
  | { kind: "retry"; reason: string }
  | { kind: "exhausted"; reason?: string };

/** The tips shown before the start, in order (messages `liveness.tips.<n>`). */
const TIPS = ["0", "1", "2"] as const;

type LivenessKey = Extract<Parameters<VerifyTranslator["has"]>[0], `liveness.${string}`>;

/** The message `liveness.<path>` for a code or action the server sent, or null when the catalogue has none. */
function livenessText(t: VerifyTranslator, path: string): string | null {
  const key = `liveness.${path}` as LivenessKey;
  return t.has(key) ? t(key) : null;
}

export function LivenessStep({ step, api, onDone, handoff, newTabUrl, phone }: StepProps) {
  const t = useTranslations("verify");
  const input = step.input as unknown as LivenessInput;
  /** Tries left: from the flow (challenges issued so far), then from each challenge's `attempts_left`. */
  const [attemptsLeft, setAttemptsLeft] = useState(() => Math.max(0, input.max_attempts - step.attempts));
  const [phase, setPhase] = useState<Phase>({ kind: "intro" });
  const [light, setLight] = useState<string | null>(null);
  // Leaving the step (or the page) stops the burst and the camera.
  const camera = useCameraStream();
  const { stream, video } = camera;
  const releaseCamera = camera.release;

  /** A failure after the challenge was issued: retried while tries are left, else the step is over. */
  const failWith = (kind: "failed" | "retry", reason: string, left: number) =>
    setPhase(left > 0 ? { kind, reason } : { kind: "exhausted", reason });

  async function start(skipColours = false) {
    const controller = camera.begin();
    setPhase({ kind: "preparing" });

    // The camera first: a camera problem must not use up a try (a challenge issued is one).
    const opened = await camera.open(controller.signal);
    if (!opened) return;
    if ("problem" in opened) return setPhase({ kind: "camera_problem", problem: opened.problem });
    const { el, playing } = opened;

    let challenge: Challenge;
    try {
      challenge = await api.requestChallenge(input.challenge_endpoint, skipColours ? { skip_colours: true } : undefined);
    } catch (err) {
      if (controller.signal.aborted) return;
      releaseCamera();
      if (isSessionProblem(err)) return;
      if (err instanceof FlowApiError && err.code === "too_many_attempts") {
        setAttemptsLeft(0);
        return setPhase({ kind: "exhausted" });
      }
      if (err instanceof FlowApiError && err.code === "liveness_already_passed") return setPhase({ kind: "passed" });
      return setPhase({ kind: "retry", reason: genericErrorMessage(t, err) });
    }
    // Issued, so counted, even when the person pressed Stop meanwhile.
    setAttemptsLeft(challenge.attempts_left);
    if (controller.signal.aborted) return;

    // The instruction timeline counts from the moment the picture and the challenge are both there.
    setPhase({ kind: "running", challenge, moment: null });
    await playing;
    if (controller.signal.aborted) return;
    const startedAt = performance.now();

    let frames: Blob[];
    try {
      const plan = planBurst(challenge.actions.length, challenge.frames);
      frames = await runBurst({
        video: el,
        plan,
        startedAt,
        signal: controller.signal,
        onMoment: (moment) => setPhase({ kind: "running", challenge, moment }),
        colours: colourTimeline(plan, challenge.colours ?? [], challenge.colour_settle_ms),
        onColour: setLight,
      });
    } catch (err) {
      releaseCamera();
      if (err instanceof BurstAborted) return;
      return failWith("retry", t("liveness.failures.no_frames"), challenge.attempts_left);
    }
    releaseCamera();
    setPhase({ kind: "sending" });

    const form = new FormData();
    form.append("challenge_id", challenge.challenge_id);
    frames.forEach((frame, i) => form.append("frames", frame, `frame-${i + 1}.jpg`));
    try {
      const result = await api.submitBurst(input.endpoint, form);
      const liveness = result.checks.find((c) => c.type === "liveness");
      if (liveness?.status === "passed") return setPhase({ kind: "passed" });
      if (liveness?.status === "review") return colourReview(liveness.error?.code, challenge.attempts_left);
      const code = liveness?.error?.code ?? "other";
      failWith("failed", livenessText(t, `failures.${code}`) ?? t("liveness.failures.other"), challenge.attempts_left);
    } catch (err) {
      if (isSessionProblem(err)) return;
      if (err instanceof FlowApiError && err.code === "liveness_already_passed") return setPhase({ kind: "passed" });
      const reason = err instanceof FlowApiError ? livenessText(t, `retryable.${err.code}`) : null;
      failWith("retry", reason ?? genericErrorMessage(t, err), challenge.attempts_left);
    }
  }

  /** A liveness result for a person's review: too little coloured light on the face is worth a retake while tries are left. */
  function colourReview(code: string | undefined, left: number) {
    if (code === "colour_response_unclear" && left > 0) return setPhase({ kind: "retry", reason: t("liveness.colourLight.unclear") });
    setPhase({ kind: "review" });
  }

  function stop() {
    camera.stop();
    releaseCamera();
    setPhase({ kind: "intro", note: t("liveness.stopped") });
  }

  // No try left: the step is over (a Start would only be refused).
  const view: Phase = phase.kind === "intro" && attemptsLeft === 0 ? { kind: "exhausted" } : phase;
  const showCamera = view.kind === "preparing" || view.kind === "running";
  return (
    <section>
      <StepHeading focusKey={view.kind === "intro" || view.kind === "preparing" || view.kind === "running" ? "step" : view.kind}>
        {t("liveness.heading")}
      </StepHeading>

      {view.kind === "intro" && (
        <>
          <p className="mt-3 text-slate-700">{t("liveness.intro")}</p>
          <ul className="mt-3 list-disc space-y-1 ps-5 text-slate-700">
            {TIPS.map((tip) => (
              <li key={tip}>{t(`liveness.tips.${tip}`)}</li>
            ))}
          </ul>
          <p className="mt-3 text-slate-700">
            {t("common.attemptsLeft", { n: attemptsLeft })} {t("liveness.eachStartUsesATry")}
          </p>
          {view.note && <Notice tone="info">{view.note}</Notice>}
          <ColourLightWarning onAlternative={() => start(true)} />
          <Actions>
            <Button onClick={() => start()}>{view.note ? t("liveness.startAgain") : t("liveness.start")}</Button>
          </Actions>
        </>
      )}

      {showCamera && <ColourLight colour={light} />}
      {showCamera && (
        <div className="relative z-50 mt-4">
          <BurstInstructions challenge={view.kind === "running" ? view.challenge : null} moment={view.kind === "running" ? view.moment : null} />
          <div className="mt-3">
            <CameraPreview ref={video} stream={stream} mirrored>
              <OvalGuide label={t("liveness.ovalLabel")} />
              {view.kind === "running" && view.moment && view.moment.phase !== "done" && (
                <span aria-hidden="true" className="absolute end-3 top-3 flex h-12 w-12 items-center justify-center rounded-full bg-white text-2xl font-bold text-slate-900">
                  {t("liveness.countdown", { n: view.moment.secondsLeft })}
                </span>
              )}
              {view.kind === "preparing" && (
                <span className="absolute inset-x-0 bottom-4 text-center text-white">
                  <Spinner label={t("camera.opening")} />
                </span>
              )}
            </CameraPreview>
          </div>
          <Actions>
            <Button variant="secondary" onClick={stop}>
              {t("liveness.stop")}
            </Button>
          </Actions>
        </div>
      )}

      {view.kind === "camera_problem" && (
        <>
          <CameraProblemNotice problem={view.problem} newTabUrl={newTabUrl} phone={phone} handoff={Boolean(handoff)} />
          <Actions>
            <Button onClick={() => start()}>{t("common.tryAgain")}</Button>
          </Actions>
          {handoff}
        </>
      )}

      {view.kind === "sending" && (
        <div className="mt-6">
          <LiveStatus>
            <Spinner label={t("liveness.sending")} />
          </LiveStatus>
        </div>
      )}

      {view.kind === "passed" && (
        <>
          <Notice tone="success">{t("liveness.passed")}</Notice>
          <Actions>
            <Button onClick={onDone}>{t("common.continue")}</Button>
          </Actions>
        </>
      )}

      {view.kind === "review" && (
        <>
          <Notice tone="info">{t("liveness.colourLight.review")}</Notice>
          <Actions>
            <Button onClick={onDone}>{t("common.continue")}</Button>
          </Actions>
        </>
      )}

      {view.kind === "failed" && (
        <>
          <Notice tone="error" title={t("liveness.failedHeading")}>
            <p>{view.reason}</p>
            <p className="mt-1">{t("common.attemptsLeft", { n: attemptsLeft })}</p>
          </Notice>
          <Actions>
            <Button onClick={() => start()}>{t("common.tryAgain")}</Button>
          </Actions>
        </>
      )}

      {view.kind === "retry" && (
        <>
          <Notice tone="error">
            <p>{view.reason}</p>
            <p className="mt-1">{t("common.attemptsLeft", { n: attemptsLeft })}</p>
          </Notice>
          <Actions>
            <Button onClick={() => start()}>{t("common.tryAgain")}</Button>
          </Actions>
        </>
      )}

      {view.kind === "exhausted" && (
        <>
          <Notice tone="error" title={t("liveness.failedHeading")}>
            {view.reason && <p>{view.reason}</p>}
            <p className={view.reason ? "mt-1" : ""}>{t("common.noAttemptsLeft")}</p>
          </Notice>
          <Actions>
            <Button onClick={onDone}>{t("common.continue")}</Button>
          </Actions>
        </>
      )}
    </section>
  );
}

/**
 * The instruction of the moment, one at a time, with its countdown. The
 * three lines are always in the page while the camera runs and only their
 * text changes, so screen readers announce each new instruction (assertive)
 * and the seconds left (polite).
 */
export function BurstInstructions({ challenge, moment }: { challenge: Pick<Challenge, "actions" | "instructions"> | null; moment: BurstMoment | null }) {
  const t = useTranslations("verify");
  let context = "";
  let cue = t("liveness.getReady");
  let seconds = "";
  if (challenge && moment) {
    if (moment.phase === "ready") {
      seconds = t("liveness.secondsLeft", { n: moment.secondsLeft });
    } else if (moment.phase === "action") {
      const action = challenge.actions[moment.action] ?? "";
      const instruction = livenessText(t, `actions.${action}`) ?? challenge.instructions[moment.action]?.text ?? action;
      context = t("liveness.movementWithInstruction", { i: moment.action + 1, n: challenge.actions.length, instruction });
      cue = livenessText(t, `cues.${action}.${moment.cue}`) ?? instruction;
      seconds = t("liveness.secondsLeft", { n: moment.secondsLeft });
    } else {
      cue = t("liveness.sending");
    }
  }
  return (
    <div className="min-h-24">
      <p className="min-h-5 text-sm font-medium text-slate-700">{context}</p>
      <p aria-live="assertive" aria-atomic="true" className="text-2xl font-bold text-slate-900" data-testid="liveness-cue">
        {cue}
      </p>
      <p aria-live="polite" aria-atomic="true" className="min-h-6 text-slate-700">
        {seconds}
      </p>
    </div>
  );
}
