"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import type { FlowApi } from "../api/flow-api";
import type { FlowState } from "../api/types";
import { Button } from "../ui/button";
import { qrSvg, svgDataUrl } from "./qr-code";
import { useFlowPolling } from "./use-flow-polling";

/**
 * "Continue on your phone": a QR code of this same session's link (token in
 * the fragment, plus `handoff=1` so the phone knows to send the person back
 * to the computer at the end). While the code is on screen the page polls
 * the session, so it can follow the phone's progress and finish with it.
 * `mode="no_camera"` shows the code at once; `offer` behind a button.
 */
export function HandoffPanel({
  url,
  api,
  mode,
  onFlow,
}: {
  url: string;
  api: FlowApi;
  mode: "no_camera" | "offer";
  onFlow: (flow: FlowState) => void;
}) {
  const t = useTranslations("verify");
  const [open, setOpen] = useState(mode === "no_camera");
  const [qr, setQr] = useState<string | null>(null);
  const headingId = useId();
  const panelId = useId();

  useEffect(() => {
    let cancelled = false;
    void qrSvg(url).then((svg) => !cancelled && setQr(svgDataUrl(svg)));
    return () => {
      cancelled = true;
    };
  }, [url]);

  useFlowPolling(api, open, onFlow);

  return (
    <section aria-labelledby={headingId} className="mt-8 rounded-xl border border-slate-300 bg-white p-4 sm:p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {t("handoff.heading")}
      </h2>
      <p className="mt-1 text-slate-700">{mode === "no_camera" ? t("handoff.noCamera") : t("handoff.offer")}</p>
      {mode === "offer" && (
        <Button variant="secondary" className="mt-3" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
          {open ? t("handoff.hide") : t("handoff.show")}
        </Button>
      )}
      <div id={panelId} hidden={!open} className="mt-4">
        {qr && (
          // eslint-disable-next-line @next/next/no-img-element -- an inline SVG data URL
          <img src={qr} alt={t("handoff.qrAlt")} width={224} height={224} className="h-56 w-56 rounded-lg border border-slate-300" data-testid="handoff-qr" />
        )}
        <p className="mt-2 text-sm text-slate-700">{t("handoff.linkWarning")}</p>
      </div>
    </section>
  );
}
