"use client";

import { useTranslations } from "next-intl";

/**
 * The colour challenge's light: while the burst runs, the whole viewport
 * shows the colour of the frame being taken (colour-schedule.ts), at full
 * saturation, behind the instructions and the camera preview (which sit
 * above it, `relative z-50`). Decorative for assistive technology; the
 * warning before the start says what will happen.
 */
export function ColourLight({ colour }: { colour: string | null }) {
  if (!colour) return null;
  return (
    <div
      aria-hidden="true"
      data-testid="colour-light"
      data-colour={colour}
      className="pointer-events-none fixed inset-0 z-40"
      style={{ backgroundColor: colour }}
    />
  );
}

/** Before the start: what the coloured light is, and the alternative for people who cannot look at it. */
export function ColourLightWarning({ onAlternative }: { onAlternative: () => void }) {
  const t = useTranslations("verify");
  return (
    <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="colour-warning">
      <p className="font-semibold">{t("liveness.colourLight.warningTitle")}</p>
      <p className="mt-1">{t("liveness.colourLight.warning")}</p>
      <p className="mt-1">{t("liveness.colourLight.brightness")}</p>
      <button type="button" onClick={onAlternative} className="mt-3 text-start font-semibold text-blue-800 underline underline-offset-2 hover:text-blue-950 focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
        {t("liveness.colourLight.alternative")}
      </button>
      <p className="mt-1 text-sm">{t("liveness.colourLight.alternativeNote")}</p>
    </div>
  );
}
