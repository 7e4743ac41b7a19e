"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { FlowApiError, isSessionProblem } from "../api/flow-api";
import type { EndpointInput } from "../api/types";
import { CameraPreview, OvalGuide } from "../camera/camera-preview";
import { CameraAppPicker } from "../camera/camera-app-picker";
import { CameraProblemNotice } from "../camera/camera-problem-notice";
import { CameraError, type CameraProblem } from "../camera/camera-problems";
import { captureFrame, whenPlaying } from "../camera/capture-frame";
import { openCamera, stopCamera } from "../camera/open-camera";
import { MAX_UPLOAD_BYTES } from "../document/document-sides";
import { genericErrorMessage } from "../flow/api-error-message";
import type { StepProps } from "../flow/step-props";
import type { VerifyTranslator } from "../i18n";
import { Actions, Button, buttonClass } from "../ui/button";
import { LiveStatus, Notice, Spinner } from "../ui/notice";
import { StepHeading } from "../ui/step-heading";

/**
 * The selfie of a workflow with face uniqueness but no liveness step: one
 * photo from the front camera (raw, not mirrored) or, when the camera cannot
 * be used, an uploaded photo; sent as the field `image`.
 */
type Phase =
  | { kind: "intro"; error?: string }
  | { kind: "camera"; ready: boolean }
  | { kind: "camera_problem"; problem: CameraProblem }
  | { kind: "sending" }
  | { kind: "done" };

type SelfieErrorKey = Extract<Parameters<VerifyTranslator["has"]>[0], `selfie.errors.${string}`>;

/** A refused selfie in plain words: the message for its error code, else the one for errors any step can meet. */
function selfieErrorOf(t: VerifyTranslator, err: unknown): string {
  const key = err instanceof FlowApiError ? (`selfie.errors.${err.code}` as SelfieErrorKey) : null;
  return key && t.has(key) ? t(key) : genericErrorMessage(t, err);
}

export function SelfieStep({ step, api, onDone, handoff, newTabUrl, phone }: StepProps) {
  const t = useTranslations("verify");
  const input = step.input as unknown as EndpointInput;
  const [phase, setPhase] = useState<Phase>({ kind: "intro" });
  const [stream, setStream] = useState<MediaStream | null>(null);
  const video = useRef<HTMLVideoElement | null>(null);
  const streamRef = useRef<MediaStream | null>(null);

  useEffect(() => () => stopCamera(streamRef.current), []);

  function release() {
    stopCamera(streamRef.current);
    streamRef.current = null;
    setStream(null);
  }

  async function startCamera() {
    setPhase({ kind: "camera", ready: false });
    try {
      const media = await openCamera("user");
      streamRef.current = media;
      const playing = video.current ? whenPlaying(video.current) : Promise.resolve();
      setStream(media);
      await playing;
      setPhase({ kind: "camera", ready: true });
    } catch (err) {
      setPhase({ kind: "camera_problem", problem: err instanceof CameraError ? err.problem : "unknown" });
    }
  }

  async function send(image: Blob) {
    setPhase({ kind: "sending" });
    const form = new FormData();
    form.append("image", image, "selfie.jpg");
    try {
      await api.submitSelfie(input.endpoint, form);
      setPhase({ kind: "done" });
    } catch (err) {
      if (isSessionProblem(err)) return;
      setPhase({ kind: "intro", error: selfieErrorOf(t, err) });
    }
  }

  async function capture() {
    if (!video.current) return;
    const blob = await captureFrame(video.current, { maxSide: 1280 });
    release();
    await send(blob);
  }

  function onFile(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    if (file.size > MAX_UPLOAD_BYTES) return setPhase({ kind: "intro", error: t("document.tooLarge") });
    void send(file);
  }

  const uploadFallback = (
    <label className={buttonClass("secondary", "cursor-pointer focus-within:outline focus-within:outline-3 focus-within:outline-blue-700")}>
      <input type="file" accept="image/*" className="sr-only" aria-label={t("selfie.upload")} onChange={onFile} />
      <span aria-hidden="true">{t("selfie.upload")}</span>
    </label>
  );

  return (
    <section>
      <StepHeading focusKey={phase.kind === "camera" ? "intro" : phase.kind}>{t("selfie.heading")}</StepHeading>
      <p className="mt-3 text-slate-700">{t("selfie.intro")}</p>

      {phase.kind === "intro" && (
        <>
          {phase.error && <Notice tone="error">{phase.error}</Notice>}
          <Actions>
            <Button onClick={startCamera}>{t("selfie.start")}</Button>
          </Actions>
        </>
      )}

      {phase.kind === "camera" && (
        <div className="mt-4">
          <CameraPreview ref={video} stream={stream} mirrored>
            <OvalGuide label={t("liveness.ovalLabel")} />
          </CameraPreview>
          <Actions>
            <Button onClick={capture} disabled={!phase.ready}>
              {t("selfie.capture")}
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                release();
                setPhase({ kind: "intro" });
              }}
            >
              {t("common.cancel")}
            </Button>
          </Actions>
        </div>
      )}

      {phase.kind === "camera_problem" && (
        <>
          <CameraProblemNotice problem={phase.problem} newTabUrl={newTabUrl} phone={phone} cameraApp={phone} handoff={Boolean(handoff)} />
          <Actions>
            <Button onClick={startCamera}>{t("common.tryAgain")}</Button>
            {phone && <CameraAppPicker facing="user" label={t("camera.cameraApp.user")} onChange={onFile} />}
            {uploadFallback}
          </Actions>
          {handoff}
        </>
      )}

      {phase.kind === "sending" && (
        <LiveStatus className="mt-6">
          <Spinner label={t("selfie.sending")} />
        </LiveStatus>
      )}

      {phase.kind === "done" && (
        <>
          <Notice tone="success">{t("selfie.received")}</Notice>
          <Actions>
            <Button onClick={onDone}>{t("common.continue")}</Button>
          </Actions>
        </>
      )}
    </section>
  );
}
