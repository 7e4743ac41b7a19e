"use client";

import { useEffect, useRef, useState } from "react";
import { stopCamera } from "./open-camera";

/**
 * The camera stream of a capture step (the liveness step, face sign-in): the
 * stream shown in the preview, the video element, the abort controller of
 * the capture under way, and `release` (camera off). Leaving the step (or
 * the page) aborts the capture and turns the camera off.
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

  return {
    stream,
    video,
    abort,
    /** Shows a newly opened stream (and owns it: `release` stops it). */
    show(media: MediaStream) {
      streamRef.current = media;
      setStream(media);
    },
    release() {
      stopCamera(streamRef.current);
      streamRef.current = null;
      setStream(null);
    },
  };
}
