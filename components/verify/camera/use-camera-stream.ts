"use client";

import { useEffect, useRef, useState } from "react";
import { CameraError, type CameraProblem } from "./camera-problems";
import { whenPlaying } from "./capture-frame";
import { openCamera, stopCamera } from "./open-camera";

/**
 * The camera of a capture step (the liveness step, face sign-in): the
 * stream shown in the preview, the video element, the capture under way
 * (`begin`, `stop`), opening the camera (`open`) and turning it off
 * (`release`). Leaving the step (or the page) stops the capture and turns
 * the camera off.
 */
export function useCameraStream() {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const video = useRef<HTMLVideoElement | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      abort.current?.abort();
      stopCamera(streamRef.current);
    },
    [],
  );

  const release = () => {
    stopCamera(streamRef.current);
    streamRef.current = null;
    setStream(null);
  };

  return {
    stream,
    video,
    release,
    /** Stops the capture under way and starts a new one. */
    begin(): AbortController {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      return controller;
    },
    /** Stops the capture under way (the camera stays on until `release`). */
    stop() {
      abort.current?.abort();
    },
    /**
     * Opens the front camera for the capture `signal` and shows it: the video
     * element and when its picture plays; `{ problem }` when the camera cannot
     * be used; null when the capture was stopped meanwhile.
     */
    async open(signal: AbortSignal): Promise<{ el: HTMLVideoElement; playing: Promise<void> } | { problem: CameraProblem } | null> {
      let media: MediaStream;
      try {
        media = await openCamera("user");
      } catch (err) {
        return signal.aborted ? null : { problem: err instanceof CameraError ? err.problem : "unknown" };
      }
      if (signal.aborted) {
        stopCamera(media);
        return null;
      }
      streamRef.current = media;
      setStream(media);
      const el = video.current;
      if (!el) {
        release();
        return null;
      }
      return { el, playing: whenPlaying(el, signal) };
    },
  };
}
