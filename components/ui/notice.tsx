"use client";

/**
 * Messages to the person. `polite` status lines are read by screen readers
 * when they change; `error` notices are alerts (read at once).
 */
const TONES = {
  info: "border-blue-200 bg-blue-50 text-blue-950",
  success: "border-green-300 bg-green-50 text-green-950",
  warning: "border-amber-300 bg-amber-50 text-amber-950",
  error: "border-red-300 bg-red-50 text-red-950",
} as const;

export function Notice({
  tone = "info",
  title,
  children,
  live = tone === "error" ? "assertive" : "polite",
}: {
  tone?: keyof typeof TONES;
  title?: string;
  children?: React.ReactNode;
  live?: "polite" | "assertive" | "off";
}) {
  const role = live === "assertive" ? "alert" : live === "polite" ? "status" : undefined;
  return (
    <div role={role} className={`mt-4 rounded-lg border p-4 ${TONES[tone]}`}>
      {title && <p className="font-semibold">{title}</p>}
      {children && <div className={title ? "mt-1" : ""}>{children}</div>}
    </div>
  );
}

/** A status line that is always in the page (so changes are announced), empty when there is nothing to say. */
export function LiveStatus({ children, className = "" }: { children?: React.ReactNode; className?: string }) {
  return (
    <p role="status" aria-live="polite" aria-atomic="true" className={className}>
      {children}
    </p>
  );
}

export function Spinner({ label }: { label: string }) {
  return (
    <span className="inline-flex items-center gap-3">
      <span aria-hidden="true" className="h-5 w-5 animate-spin rounded-full border-2 border-slate-300 border-t-blue-700" />
      <span>{label}</span>
    </span>
  );
}
