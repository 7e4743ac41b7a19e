"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { isSessionProblem } from "../api/flow-api";
import type { EndpointInput } from "../api/types";
import { genericErrorMessage } from "../flow/api-error-message";
import type { StepProps } from "../flow/step-props";
import { Actions, Button } from "../ui/button";
import { LiveStatus, Notice, Spinner } from "../ui/notice";
import { StepHeading } from "../ui/step-heading";
import { locateOnce, type GeoOutcome } from "./geolocation";

/**
 * The location step: explains why, then asks the browser for one fix. The
 * outcome is sent either way: a position, or the reason there is none (a
 * blocked permission fails the check, spec 2.2 rule 1). A blocked or failed
 * attempt is explained with how to fix it; Try again replaces the result,
 * or the person continues without.
 */
type Phase =
  | { kind: "intro" }
  | { kind: "locating" }
  | { kind: "sent" }
  | { kind: "no_fix"; reason: Exclude<GeoOutcome, { ok: true }>["reason"] }
  | { kind: "error"; message: string };

export function LocationStep({ step, api, appName, onDone }: StepProps) {
  const t = useTranslations("verify");
  const input = step.input as unknown as EndpointInput;
  const [phase, setPhase] = useState<Phase>({ kind: "intro" });

  async function share() {
    setPhase({ kind: "locating" });
    const outcome = await locateOnce();
    const body = outcome.ok
      ? { lat: outcome.lat, lng: outcome.lng, accuracy_m: outcome.accuracy_m }
      : { error: outcome.reason === "unsupported" ? "position_unavailable" : outcome.reason };
    try {
      await api.submitLocation(input.endpoint, body);
    } catch (err) {
      if (isSessionProblem(err)) return;
      return setPhase({ kind: "error", message: genericErrorMessage(t, err) });
    }
    setPhase(outcome.ok ? { kind: "sent" } : { kind: "no_fix", reason: outcome.reason });
  }

  return (
    <section>
      <StepHeading focusKey={phase.kind === "locating" ? "intro" : phase.kind}>{t("location.heading")}</StepHeading>
      <p className="mt-3 text-slate-700">{t("location.intro", { app: appName })}</p>

      <LiveStatus className="mt-4">{phase.kind === "locating" ? <Spinner label={t("location.locating")} /> : null}</LiveStatus>

      {phase.kind === "intro" && (
        <Actions>
          <Button onClick={share}>{t("location.share")}</Button>
        </Actions>
      )}

      {phase.kind === "sent" && (
        <>
          <Notice tone="success">{t("location.sent")}</Notice>
          <Actions>
            <Button onClick={onDone}>{t("common.continue")}</Button>
          </Actions>
        </>
      )}

      {phase.kind === "no_fix" && (
        <>
          <Notice tone="error" title={t(`location.problems.${phase.reason}.title`)}>
            <p>{t(`location.problems.${phase.reason}.body`)}</p>
          </Notice>
          <Actions>
            <Button onClick={share}>{t("common.tryAgain")}</Button>
            <Button variant="secondary" onClick={onDone}>
              {t("location.continueWithout")}
            </Button>
          </Actions>
        </>
      )}

      {phase.kind === "error" && (
        <>
          <Notice tone="error">{phase.message}</Notice>
          <Actions>
            <Button onClick={share}>{t("common.tryAgain")}</Button>
          </Actions>
        </>
      )}
    </section>
  );
}
