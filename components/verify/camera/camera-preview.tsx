"use client";

import { useTranslations } from "next-intl";
import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";

/**
 * The live camera picture. `playsInline muted autoPlay`: iOS Safari plays a
 * camera stream inline only with these (otherwise it goes full screen or
 * does not start). `mirrored` flips the PICTURE only (CSS), like a mirror,
 * which is what people expect from a front camera; captured frames are
 * taken from the video element, unflipped. Overlays (oval, frame guide) are
 * children drawn over the picture.
 */
export const CameraPreview = forwardRef<HTMLVideoElement | null, { stream: MediaStream | null; mirrored: boolean; aspect?: string; children?: React.ReactNode }>(
  function CameraPreview({ stream, mirrored, aspect = "aspect-[3/4] sm:aspect-[4/3]", children }, ref) {
    const t = useTranslations("verify");
    const video = useRef<HTMLVideoElement>(null);
    useImperativeHandle<HTMLVideoElement | null, HTMLVideoElement | null>(ref, () => video.current, []);
    useEffect(() => {
      const el = video.current;
      if (!el) return;
      el.srcObject = stream;
      if (stream) void el.play().catch(() => undefined);
    }, [stream]);
    return (
      <div className={`relative mx-auto w-full max-w-md overflow-hidden rounded-2xl bg-slate-900 ${aspect}`}>
        <video
          ref={video}
          playsInline
          muted
          autoPlay
          aria-label={t("camera.previewLabel")}
          className={`absolute inset-0 h-full w-full object-cover ${mirrored ? "-scale-x-100" : ""}`}
        />
        {children}
      </div>
    );
  },
);

/** The oval the face goes in: the rest of the picture is dimmed. */
export function OvalGuide({ label }: { label: string }) {
  return (
    <div role="img" aria-label={label} className="pointer-events-none absolute inset-0 flex items-center justify-center">
      <div className="h-[72%] w-[62%] rounded-[50%] border-4 border-white/90 shadow-[0_0_0_9999px_rgba(15,23,42,0.55)] sm:h-[78%] sm:w-[46%]" />
    </div>
  );
}

/** The rectangle a document goes in (ID-1 card or passport page proportions). */
export function DocumentFrameGuide({ ratio }: { ratio: number }) {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0 flex items-center justify-center p-[6%]">
      <div className="w-full rounded-xl border-4 border-white/90 shadow-[0_0_0_9999px_rgba(15,23,42,0.5)]" style={{ aspectRatio: String(ratio) }} />
    </div>
  );
}
