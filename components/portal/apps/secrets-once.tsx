"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { text } from "../api";

/** Secrets shown once (a new API key, a client secret): each with a copy button; focus moves here so it is not missed. */
export function SecretsOnce({
  heading,
  secrets,
  onDone,
  note = text.common.shownOnce,
}: {
  heading: string;
  secrets: Array<{ label: string; value: string }>;
  onDone: () => void;
  /** What happens to it afterwards (default: only its first characters are shown). */
  note?: string;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="secrets-once">
      <h3 ref={ref} tabIndex={-1} className="font-semibold focus-visible:outline focus-visible:outline-3 focus-visible:outline-blue-700">
        {heading}
      </h3>
      <p className="mt-1 text-sm">{note}</p>
      <dl>
        {secrets.map((s) => (
          <div key={s.label} className="mt-3">
            <dt className="text-sm font-medium">{s.label}</dt>
            <dd className="mt-1 flex flex-wrap items-center gap-2">
              <code className="break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900">{s.value}</code>
              <CopyButton value={s.value} label={text.common.copyLabel(s.label)} copyText={text.common.copy} copiedText={text.common.copied} />
            </dd>
          </div>
        ))}
      </dl>
      <Button variant="secondary" className="mt-4 min-h-10 px-3 py-1.5 text-sm" onClick={onDone}>
        {text.common.dismiss}
      </Button>
    </div>
  );
}
