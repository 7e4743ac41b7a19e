"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { buttonClass, Button } from "../ui/button";
import { DocumentCamera } from "./document-camera";
import { MAX_UPLOAD_BYTES, type CapturedImage } from "./document-sides";

const ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif";

/**
 * One side of the document: take a photo with the camera or upload a file;
 * then a thumbnail of exactly what the person captured (nothing read from
 * it) and a Retake button. `problem` marks the side the server asked to retake.
 */
export function DocumentSide({
  title,
  hint,
  ratio,
  image,
  problem,
  newTabUrl,
  phone,
  onImage,
  onClear,
}: {
  title: string;
  hint: string;
  ratio: number;
  image: CapturedImage | null;
  problem: string | null;
  newTabUrl: string | null;
  phone: boolean;
  onImage: (blob: Blob, fileName: string) => void;
  onClear: () => void;
}) {
  const t = useTranslations("verify");
  const [camera, setCamera] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const hintId = useId();
  const errorId = useId();
  const message = fileError ?? problem;

  function onFile(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    if (file.size > MAX_UPLOAD_BYTES) return setFileError(t("document.tooLarge"));
    if (file.type && !file.type.startsWith("image/")) return setFileError(t("document.notAnImage"));
    setFileError(null);
    onImage(file, file.name || "document.jpg");
  }

  return (
    <div className={`mt-4 rounded-xl border bg-white p-4 ${message ? "border-red-600 ring-1 ring-red-600" : "border-slate-300"}`}>
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <p id={hintId} className="text-slate-700">
        {hint}
      </p>
      {message && (
        <p id={errorId} className="mt-2 font-medium text-red-800">
          {message}
        </p>
      )}

      {image && !camera && (
        <div className="mt-3">
          {/* eslint-disable-next-line @next/next/no-img-element -- a local object URL of the person's own capture */}
          <img src={image.url} alt={t("document.capturedAlt", { side: title })} className="max-h-56 w-auto rounded-lg border border-slate-300" />
          <div className="mt-3">
            <Button variant="secondary" onClick={onClear} aria-label={t("document.retakeLabel", { side: title })}>
              {t("document.retake")}
            </Button>
          </div>
        </div>
      )}

      {!image && camera && (
        <DocumentCamera
          ratio={ratio}
          sideLabel={title}
          newTabUrl={newTabUrl}
          phone={phone}
          onFile={(e) => {
            setCamera(false);
            onFile(e);
          }}
          onCapture={(blob) => {
            setCamera(false);
            setFileError(null);
            onImage(blob, "camera.jpg");
          }}
          onCancel={() => setCamera(false)}
        />
      )}

      {!image && !camera && (
        <div className="mt-3 flex flex-col gap-3 sm:flex-row">
          <Button onClick={() => setCamera(true)} aria-label={t("document.takePhotoLabel", { side: title })} aria-describedby={hintId}>
            {t("document.takePhoto")}
          </Button>
          <label className={buttonClass("secondary", "cursor-pointer focus-within:outline focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-blue-700")}>
            <input
              type="file"
              accept={ACCEPT}
              className="sr-only"
              aria-label={t("document.uploadLabel", { side: title })}
              aria-describedby={message ? `${hintId} ${errorId}` : hintId}
              onChange={onFile}
            />
            <span aria-hidden="true">{t("document.uploadPhoto")}</span>
          </label>
        </div>
      )}
    </div>
  );
}
