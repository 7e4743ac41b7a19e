"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { CameraPreview, DocumentFrameGuide } from "../camera/camera-preview";
import { CameraAppPicker } from "../camera/camera-app-picker";
import { CameraProblemNotice } from "../camera/camera-problem-notice";
import { CameraError, type CameraProblem } from "../camera/camera-problems";
import { captureFrame, whenPlaying } from "../camera/capture-frame";
import { openCamera, stopCamera } from "../camera/open-camera";
import { Actions, Button } from "../ui/button";
import { Spinner } from "../ui/notice";

/**
 * Photographs one side of a document: the back camera when there is one, a
 * frame guide in the card's proportions, one full-resolution still (not
 * mirrored, so the text reads normally). The camera stops on capture or cancel.
 */
export function DocumentCamera({
  ratio,
  sideLabel,
  newTabUrl,
  phone,
  onFile,
  onCapture,
  onCancel,
}: {
  ratio: number;
  sideLabel: string;
  newTabUrl: string | null;
  /** On a phone, a camera problem offers the camera app instead (its picture comes back as a file, `onFile`). */
  phone: boolean;
  onFile: (e: React.ChangeEvent<HTMLInputElement>) => void;
  onCapture: (blob: Blob) => void;
  onCancel: () => void;
}) {
  const t = useTranslations("verify");
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const [ready, setReady] = useState(false);
  const video = useRef<HTMLVideoElement | null>(null);

  useEffect(() => {
    let cancelled = false;
    let opened: MediaStream | null = null;
    openCamera("environment").then(
      (media) => {
        if (cancelled) return stopCamera(media);
        opened = media;
        setStream(media);
        if (video.current) void whenPlaying(video.current).then(() => !cancelled && setReady(true));
      },
      (err) => !cancelled && setProblem(err instanceof CameraError ? err.problem : "unknown"),
    );
    return () => {
      cancelled = true;
      stopCamera(opened);
    };
  }, []);

  async function capture() {
    if (!video.current) return;
    const blob = await captureFrame(video.current, { maxSide: 2400, quality: 0.92 });
    stopCamera(stream);
    onCapture(blob);
  }

  if (problem) {
    return (
      <div>
        <CameraProblemNotice problem={problem} newTabUrl={newTabUrl} phone={phone} cameraApp={phone} />
        <Actions>
          {phone && <CameraAppPicker facing="environment" label={t("camera.cameraApp.environment", { side: sideLabel })} onChange={onFile} />}
          <Button variant="secondary" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
        </Actions>
      </div>
    );
  }
  return (
    <div className="mt-3">
      <p className="text-slate-700">{t("document.frameHint")}</p>
      <div className="mt-3">
        <CameraPreview ref={video} stream={stream} mirrored={false} aspect="aspect-[4/3]">
          <DocumentFrameGuide ratio={ratio} />
          {!ready && (
            <span className="absolute inset-x-0 bottom-4 text-center text-white">
              <Spinner label={t("camera.opening")} />
            </span>
          )}
        </CameraPreview>
      </div>
      <Actions>
        <Button onClick={capture} disabled={!ready} aria-label={t("document.captureLabel", { side: sideLabel })}>
          {t("document.capture")}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </Actions>
    </div>
  );
}
