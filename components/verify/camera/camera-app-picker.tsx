"use client";

import { buttonClass } from "../ui/button";

/**
 * The phone's own camera app as a file picker (`<input type=file
 * accept=image/* capture>`): it works even where the page may not use the
 * camera itself, and the photo comes back as a file. Offered on phones
 * wherever a step accepts an uploaded picture (document sides, the selfie).
 */
export function CameraAppPicker({
  facing,
  label,
  onChange,
}: {
  facing: "user" | "environment";
  label: string;
  onChange: (e: React.ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <label className={buttonClass("primary", "cursor-pointer focus-within:outline focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-blue-700")}>
      <input type="file" accept="image/*" capture={facing} className="sr-only" aria-label={label} onChange={onChange} data-testid="camera-app-picker" />
      <span aria-hidden="true">{label}</span>
    </label>
  );
}
