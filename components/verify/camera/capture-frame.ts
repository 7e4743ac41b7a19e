/**
 * Grabs the video's current frame as a JPEG, exactly as the camera delivers
 * it: never mirrored (the preview may be shown mirrored with CSS, but the
 * server measures which way the head turns on the raw frames), downscaled
 * so the long side is at most `maxSide`. The frame is drawn synchronously
 * (the moment of the call) and encoded afterwards.
 */
export function captureFrame(video: HTMLVideoElement, options: { maxSide: number; quality?: number }): Promise<Blob> {
  const width = video.videoWidth;
  const height = video.videoHeight;
  if (!width || !height) return Promise.reject(new Error("The camera has no picture yet"));
  const scale = Math.min(1, options.maxSide / Math.max(width, height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext("2d");
  if (!ctx) return Promise.reject(new Error("No 2D canvas"));
  ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("JPEG encoding failed"))), "image/jpeg", options.quality ?? 0.92),
  );
}

/**
 * Resolves once the video shows frames (the `playing` event), at once if it
 * already does, or when `signal` aborts (the caller checks which).
 */
export function whenPlaying(video: HTMLVideoElement, signal?: AbortSignal): Promise<void> {
  if (!video.paused && video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      video.removeEventListener("playing", done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    video.addEventListener("playing", done);
    signal?.addEventListener("abort", done);
  });
}
