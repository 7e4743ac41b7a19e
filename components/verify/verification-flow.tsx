"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { createFlowApi, FlowApiError, isSessionProblem, type FlowApi } from "./api/flow-api";
import { readSessionLink, safeReturnUrl, sessionUrl, type SessionLink } from "./api/session-link";
import { isDecided, isGone } from "@/lib/sessions/statuses";
import type { FlowState, FlowStep, StoppedBy } from "./api/types";
import { isPhoneLike } from "./camera/device-kind";
import { cameraAvailability, isDesktopLike, type CameraAvailability } from "./camera/open-camera";
import { CredentialStep } from "./credential/credential-step";
import { DocumentStep } from "./document/document-step";
import { DonePage } from "./flow/done-page";
import { FollowingPage } from "./flow/following-page";
import { firstOpenStep, isStepDone, needsCamera, personSteps } from "./flow/person-steps";
import { ProgressIndicator } from "./flow/progress-indicator";
import { SessionProblemPage, type SessionProblem } from "./flow/session-problem-page";
import { StartPage } from "./flow/start-page";
import { StopPage } from "./flow/stop-page";
import type { StepProps } from "./flow/step-props";
import { VerifyShell } from "./flow/verify-shell";
import { HandoffPanel } from "./handoff/handoff-panel";
import { LivenessStep } from "./liveness/liveness-step";
import { LocationStep } from "./location/location-step";
import { SelfieStep } from "./selfie/selfie-step";
import { LiveStatus, Spinner } from "./ui/notice";

/**
 * The hosted verification page for one session: reads the session token
 * from the link, loads the flow (`GET /api/v2/flow`), then start page, one
 * view per step the person does, finish, final page and the return to the
 * app. Session-level problems (expired, closed, unknown, incomplete link)
 * replace the page with a friendly explanation whenever they come up.
 */
type View =
  | { kind: "loading" }
  | { kind: "problem"; problem: SessionProblem }
  | { kind: "start" }
  | { kind: "step"; index: number }
  | { kind: "finishing" }
  | { kind: "following" }
  | { kind: "done"; status: string; redirectUrl: string | null; alreadyComplete: boolean }
  | { kind: "stopped"; stoppedBy: StoppedBy; returnUrl: string | null };

const STEP_COMPONENTS: Record<string, (props: StepProps) => React.ReactNode> = {
  id_verification: DocumentStep,
  liveness: LivenessStep,
  location: LocationStep,
  face_uniqueness: SelfieStep,
  credential: CredentialStep,
};

/** Whether any step's result changed between two readings (the phone did something). */
function progressed(before: FlowState | null, after: FlowState): boolean {
  if (!before) return false;
  return after.steps.some((s, i) => s.status !== before.steps[i]?.status || s.attempts !== before.steps[i]?.attempts);
}

export function VerificationFlow({ sessionId }: { sessionId: string }) {
  const t = useTranslations("verify");
  const [link, setLink] = useState<SessionLink | null>(null);
  const [flow, setFlow] = useState<FlowState | null>(null);
  const [view, setView] = useState<View>({ kind: "loading" });
  const [camera, setCamera] = useState<CameraAvailability>("unknown");
  const [desktop, setDesktop] = useState(false);
  const [phone, setPhone] = useState(false);
  const flowRef = useRef<FlowState | null>(null);

  const rememberFlow = useCallback((next: FlowState) => {
    flowRef.current = next;
    setFlow(next);
  }, []);

  // A session a check decided before the end shows why (the stop page), not the final page.
  const showDecided = useCallback(
    (next: FlowState, alreadyComplete: boolean) =>
      setView(
        next.stopped_by
          ? { kind: "stopped", stoppedBy: next.stopped_by, returnUrl: safeReturnUrl(next.return_url) }
          : { kind: "done", status: next.status, redirectUrl: safeReturnUrl(next.return_url), alreadyComplete },
      ),
    [],
  );

  // Filled below once the API exists; the API client reports session problems here.
  const reload = useRef<() => void>(() => undefined);
  const onSessionProblem = useCallback((err: FlowApiError) => {
    if (err.code === "session_closed") return reload.current();
    setView({
      kind: "problem",
      problem: err.code === "session_expired" ? "expired" : err.code === "token_missing" ? "link_incomplete" : "not_found",
    });
    // Reading still works on an expired session: it gives the way back to the app (return_url).
    if (err.code === "session_expired") reload.current();
  }, []);

  const api: FlowApi | null = useMemo(() => (link?.token ? createFlowApi(link.token, { onSessionProblem }) : null), [link, onSessionProblem]);

  const load = useCallback(
    async (options: { closedOnly?: boolean } = {}) => {
      if (!api) return;
      let next: FlowState;
      try {
        next = await api.getFlow();
      } catch (err) {
        // Session problems already replaced the page (onSessionProblem); anything else can be retried.
        if (!isSessionProblem(err)) setView({ kind: "problem", problem: "network" });
        return;
      }
      if (next.session_id !== sessionId) return setView({ kind: "problem", problem: "not_found" });
      rememberFlow(next);
      if (isGone(next.status)) return setView({ kind: "problem", problem: "expired" });
      if (isDecided(next.status)) return showDecided(next, !options.closedOnly);
      if (!options.closedOnly) setView({ kind: "start" });
    },
    [api, sessionId, rememberFlow, showDecided],
  );
  reload.current = () => void load({ closedOnly: true });

  // Once, in the browser: the token from the link, the camera.
  // A link opened again in this tab with another token (only the fragment
  // changes, so the page does not reload) starts over with that token.
  useEffect(() => {
    const readLink = () => {
      const read = readSessionLink(sessionId);
      setLink(read);
      if (!read.token) setView({ kind: "problem", problem: "link_incomplete" });
    };
    readLink();
    const onHashChange = () => {
      if (!new URLSearchParams(window.location.hash.replace(/^#/, "")).get("token")) return;
      flowRef.current = null;
      setFlow(null);
      setView({ kind: "loading" });
      readLink();
    };
    window.addEventListener("hashchange", onHashChange);
    setDesktop(isDesktopLike());
    setPhone(isPhoneLike());
    void cameraAvailability().then(setCamera);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, [sessionId]);

  useEffect(() => {
    void load();
  }, [load]);

  const steps: FlowStep[] = useMemo(() => (flow ? personSteps(flow) : []), [flow]);

  const goToStepAfter = useCallback(
    async (index: number) => {
      let latest = flowRef.current;
      try {
        if (api) latest = await api.getFlow();
      } catch {
        // Keep what we have; the finish call will tell if something is wrong.
      }
      if (latest) rememberFlow(latest);
      if (latest && isDecided(latest.status)) return showDecided(latest, false);
      const list = latest ? personSteps(latest) : steps;
      const next = list.findIndex((s, i) => i > index && !isStepDone(s));
      setView(next === -1 ? { kind: "finishing" } : { kind: "step", index: next });
    },
    [api, rememberFlow, showDecided, steps],
  );

  // Finishing: the decision engine runs; then the final page.
  useEffect(() => {
    if (view.kind !== "finishing" || !api) return;
    let cancelled = false;
    api.finish().then(
      (done) => !cancelled && setView({ kind: "done", status: done.status, redirectUrl: safeReturnUrl(done.redirect_url), alreadyComplete: false }),
      (err) => {
        if (cancelled || isSessionProblem(err)) return;
        setView({ kind: "problem", problem: "network" });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [view.kind, api]);

  // The computer follows a session the phone is working on.
  const onPolledFlow = useCallback(
    (next: FlowState) => {
      const before = flowRef.current;
      rememberFlow(next);
      if (isDecided(next.status)) return showDecided(next, false);
      if (isGone(next.status)) return setView({ kind: "problem", problem: "expired" });
      if (progressed(before, next)) setView({ kind: "following" });
    },
    [rememberFlow, showDecided],
  );

  const onPhone = Boolean(link?.handoff);
  const token = link?.token ?? null;
  const newTabUrl = token && typeof window !== "undefined" ? sessionUrl(sessionId, token) : null;
  const cameraNeeded = needsCamera(steps);
  const noCameraHere = camera === "none" || camera === "unsupported" || camera === "insecure_context";
  // The QR hand-off is for desktops only: a phone is the device to use, so it keeps its Start button
  // and, when its camera is refused, is told how to allow it (docs/hosted-flow.md "Hosted flow on phones").
  const handoffMode: "no_camera" | "offer" | null =
    onPhone || phone || !api || !token || !cameraNeeded ? null : noCameraHere ? "no_camera" : desktop ? "offer" : null;
  const handoffPanel = (mode: "no_camera" | "offer") =>
    api && token ? <HandoffPanel url={sessionUrl(sessionId, token, { handoff: true })} api={api} mode={mode} onFlow={onPolledFlow} /> : null;

  let content: React.ReactNode;
  switch (view.kind) {
    case "loading":
      content = (
        <LiveStatus className="mt-10 text-slate-700">
          <Spinner label={t("common.loading")} />
        </LiveStatus>
      );
      break;
    case "problem":
      content = (
        <SessionProblemPage
          problem={view.problem}
          appName={flow?.app.name ?? null}
          returnUrl={view.problem === "expired" ? safeReturnUrl(flow?.return_url) : null}
          onRetry={view.problem === "network" ? () => void load() : undefined}
        />
      );
      break;
    case "start":
      content = flow && (
        <StartPage
          flow={flow}
          steps={steps}
          resuming={steps.some((s) => s.status !== "pending")}
          preferPhone={handoffMode === "no_camera"}
          onStart={() => {
            const open = firstOpenStep(steps);
            setView(open >= steps.length ? { kind: "finishing" } : { kind: "step", index: open });
          }}
          handoff={handoffMode ? handoffPanel(handoffMode) : null}
        />
      );
      break;
    case "step": {
      const step = steps[view.index];
      const Step = step ? STEP_COMPONENTS[step.type] : undefined;
      content =
        flow && api && step && Step ? (
          <>
            <ProgressIndicator steps={steps.map((s) => s.type)} current={view.index} />
            <Step
              key={`${step.type}-${view.index}`}
              step={step}
              api={api}
              appName={flow.app.name}
              onDone={() => void goToStepAfter(view.index)}
              handoff={onPhone || phone ? null : handoffPanel("no_camera")}
              newTabUrl={newTabUrl}
              phone={phone}
            />
          </>
        ) : null;
      break;
    }
    case "finishing":
      content = (
        <>
          {steps.length > 0 && <ProgressIndicator steps={steps.map((s) => s.type)} current={steps.length} />}
          <LiveStatus className="mt-6 text-slate-700">
            <Spinner label={t("finish.submitting")} />
          </LiveStatus>
        </>
      );
      break;
    case "following":
      content = api && <FollowingPage api={api} steps={steps} onFlow={onPolledFlow} />;
      break;
    case "done":
      content = (
        <DonePage
          appName={flow?.app.name ?? ""}
          status={view.status}
          redirectUrl={view.redirectUrl}
          onPhone={onPhone}
          alreadyComplete={view.alreadyComplete}
        />
      );
      break;
    case "stopped":
      content = <StopPage appName={flow?.app.name ?? ""} stoppedBy={view.stoppedBy} returnUrl={view.returnUrl} onPhone={onPhone} />;
      break;
  }

  return (
    <VerifyShell appName={flow?.app.name ?? null} logo={flow?.app.logo}>
      {content}
    </VerifyShell>
  );
}
