"use client";

import { useState } from "react";
import { buttonClass } from "./button";

/** Copies a value to the clipboard and says so (announced). */
export function CopyButton({ value, label, copyText, copiedText }: { value: string; label: string; copyText: string; copiedText: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={label}
      className={buttonClass("secondary", "min-h-10 px-3 py-1.5 text-sm")}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          setCopied(false);
        }
      }}
    >
      <span aria-live="polite">{copied ? copiedText : copyText}</span>
    </button>
  );
}
