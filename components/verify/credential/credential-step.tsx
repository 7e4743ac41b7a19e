"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { Field } from "@/components/ui/field";
import { FlowApiError, isSessionProblem } from "../api/flow-api";
import type { CredentialCheck, CredentialInput, CredentialProvider, CredentialState, LicenceField } from "../api/types";
import { genericErrorMessage } from "../flow/api-error-message";
import type { StepProps } from "../flow/step-props";
import { Actions, Button } from "../ui/button";
import { LiveStatus, Notice, Spinner } from "../ui/notice";
import { StepHeading } from "../ui/step-heading";
import { formatExpiry, resultMessage, stateName, submitProblemOf } from "./credential-messages";
import { SelectField } from "./select-field";

/**
 * The licence step (`credential`): the person picks the state that issued
 * the licence, then the licence (one row per `credential_code`, spec 2.6;
 * narrowed by the server to the workflow's licence types), answers the
 * inputs that registry asks for, and the registry is asked. A licence that
 * is not found, someone else's, expired or suspended is explained; Try again
 * while lookups are left, or Continue (the check then stays failed). A
 * registry that did not answer can be tried again, or left to a reviewer.
 */
type Phase =
  | { kind: "form" }
  | { kind: "result"; check: CredentialCheck; attemptsLeft: number; n: number }
  | { kind: "blocked"; reason: "kyc_required" | "already_verified" | "no_attempts_left" | "no_registry" };

type Listing<T> = { kind: "idle" } | { kind: "loading" } | { kind: "ready"; items: T[] } | { kind: "none" } | { kind: "error"; message: string };

type Errors = { state?: string; credential?: string; fields: Partial<Record<LicenceField, string>>; message?: string | null };

const NO_ERRORS: Errors = { fields: {} };

export function CredentialStep({ step, api, appName, onDone }: StepProps) {
  const t = useTranslations("verify");
  const input = step.input as unknown as CredentialInput;
  const [phase, setPhase] = useState<Phase>(() =>
    step.status !== "passed" && step.attempts >= input.max_attempts ? { kind: "blocked", reason: "no_attempts_left" } : { kind: "form" },
  );
  const [states, setStates] = useState<Listing<CredentialState>>({ kind: "loading" });
  const [providers, setProviders] = useState<Listing<CredentialProvider>>({ kind: "idle" });
  const [stateCode, setStateCode] = useState("");
  const [credentialCode, setCredentialCode] = useState("");
  const [values, setValues] = useState<Partial<Record<LicenceField, string>>>({});
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [checking, setChecking] = useState(false);
  const providersRequest = useRef(0);
  const stateSelect = useRef<HTMLSelectElement>(null);
  const credentialSelect = useRef<HTMLSelectElement>(null);
  const fieldInputs = useRef<Partial<Record<LicenceField, HTMLInputElement | null>>>({});
  /** What takes the focus once the errors are on screen. */
  const focusNext = useRef<HTMLElement | null | (() => HTMLElement | null | undefined)>(null);

  const provider = providers.kind === "ready" ? (providers.items.find((p) => p.credential_code === credentialCode) ?? null) : null;
  const stateList = states.kind === "ready" ? states.items : [];

  const chooseState = useCallback(
    async (code: string) => {
      setStateCode(code);
      setCredentialCode("");
      setErrors(NO_ERRORS);
      const request = ++providersRequest.current;
      if (!code) return setProviders({ kind: "idle" });
      setProviders({ kind: "loading" });
      try {
        const { providers: items } = await api.getCredentialProviders(input.states_endpoint, code);
        if (request !== providersRequest.current) return;
        setProviders(items.length ? { kind: "ready", items } : { kind: "none" });
        if (items.length === 1) setCredentialCode(items[0]!.credential_code);
      } catch (err) {
        if (request !== providersRequest.current || isSessionProblem(err)) return;
        if (err instanceof FlowApiError && err.code === "not_found") return setProviders({ kind: "none" });
        setProviders({ kind: "error", message: genericErrorMessage(t, err) });
      }
    },
    [api, input.states_endpoint, t],
  );

  const loadStates = useCallback(async () => {
    setStates({ kind: "loading" });
    try {
      const { states: items } = await api.getCredentialStates(input.states_endpoint);
      if (items.length === 0) {
        setStates({ kind: "none" });
        return setPhase((current) => (current.kind === "form" ? { kind: "blocked", reason: "no_registry" } : current));
      }
      setStates({ kind: "ready", items });
      if (items.length === 1) void chooseState(items[0]!.state_code);
    } catch (err) {
      if (isSessionProblem(err)) return;
      setStates({ kind: "error", message: genericErrorMessage(t, err) });
    }
  }, [api, input.states_endpoint, chooseState, t]);

  useEffect(() => {
    void loadStates();
  }, [loadStates]);

  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    (typeof target === "function" ? target() : target)?.focus();
  }, [errors]);

  function showErrors(next: Errors, focus: typeof focusNext.current) {
    focusNext.current = focus;
    setErrors(next);
  }

  async function check(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (checking) return;
    if (!stateCode) return showErrors({ fields: {}, state: t("credential.chooseState") }, stateSelect.current);
    if (!provider) return showErrors({ fields: {}, credential: t("credential.chooseLicence") }, credentialSelect.current);
    const fields = Object.fromEntries(provider.required_fields.map((f) => [f, (values[f] ?? "").trim()])) as Partial<Record<LicenceField, string>>;
    setChecking(true);
    setErrors(NO_ERRORS);
    try {
      const answer = await api.submitCredential(input.endpoint, { credential_code: provider.credential_code, fields });
      const result = answer.checks.find((c) => c.type === "credential");
      if (!result) return showErrors({ fields: {}, message: t("common.unexpectedError") }, null);
      setPhase((current) => ({ kind: "result", check: result, attemptsLeft: answer.attempts_left, n: current.kind === "result" ? current.n + 1 : 1 }));
    } catch (err) {
      if (isSessionProblem(err)) return;
      const problem = submitProblemOf(t, err, fields);
      if (problem.kind === "blocked") return setPhase({ kind: "blocked", reason: problem.reason });
      if (problem.kind === "fields") {
        const first = provider.required_fields.find((f) => problem.fields[f]);
        return showErrors({ fields: problem.fields, message: problem.message }, first ? () => fieldInputs.current[first] : null);
      }
      showErrors({ fields: {}, message: problem.message }, null);
    } finally {
      setChecking(false);
    }
  }

  function tryAgain() {
    setErrors(NO_ERRORS);
    setPhase({ kind: "form" });
  }

  const busy =
    phase.kind !== "form"
      ? null
      : checking
        ? t("credential.checking")
        : states.kind === "loading"
          ? t("credential.loadingStates")
          : providers.kind === "loading"
            ? t("credential.loadingLicences")
            : null;

  return (
    <section>
      <StepHeading focusKey={phase.kind === "result" ? `result-${phase.n}` : phase.kind}>{t("credential.heading")}</StepHeading>
      <p className="mt-3 text-slate-700">{t("credential.intro", { app: appName })}</p>

      {phase.kind === "form" && states.kind === "error" && (
        <>
          <Notice tone="error">{states.message}</Notice>
          <Actions>
            <Button onClick={() => void loadStates()}>{t("common.tryAgain")}</Button>
          </Actions>
        </>
      )}

      {phase.kind === "form" && states.kind === "ready" && (
        <form noValidate onSubmit={check} className="mt-2">
          <SelectField
            ref={stateSelect}
            label={t("credential.stateLabel")}
            placeholder={t("credential.statePlaceholder")}
            options={stateList.map((s) => ({ value: s.state_code, label: s.state_name }))}
            value={stateCode}
            onChange={(code) => void chooseState(code)}
            error={errors.state}
          />

          {providers.kind === "none" && (
            <Notice tone="warning" live="polite">
              {t("credential.noLicences")}
            </Notice>
          )}
          {providers.kind === "error" && (
            <>
              <Notice tone="error">{providers.message}</Notice>
              <Actions>
                <Button variant="secondary" onClick={() => void chooseState(stateCode)}>
                  {t("common.tryAgain")}
                </Button>
              </Actions>
            </>
          )}

          {providers.kind === "ready" && (
            <SelectField
              ref={credentialSelect}
              label={t("credential.licenceLabel")}
              placeholder={t("credential.licencePlaceholder")}
              options={providers.items.map((p) => ({ value: p.credential_code, label: t("credential.licenceOption", { credential: p.credential_name, provider: p.provider_display_name }) }))}
              value={credentialCode}
              onChange={(code) => {
                setCredentialCode(code);
                setErrors(NO_ERRORS);
              }}
              error={errors.credential}
            />
          )}

          {provider?.required_fields.map((field) => (
            <Field
              key={field}
              ref={(el) => {
                fieldInputs.current[field] = el;
              }}
              name={field}
              label={t(`credential.fields.${field}.label`)}
              hint={t(`credential.fields.${field}.hint`)}
              errors={errors.fields[field] ? [errors.fields[field]!] : undefined}
              value={values[field] ?? ""}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((current) => ({ ...current, [field]: value }));
              }}
              type="text"
              autoComplete="off"
              spellCheck={false}
              aria-required="true"
              {...(field === "npi_number" ? { inputMode: "numeric" as const, pattern: "[0-9]*" } : { autoCapitalize: "characters" })}
            />
          ))}

          {errors.message && <Notice tone="error">{errors.message}</Notice>}

          <Actions>
            <Button type="submit" aria-disabled={checking || undefined}>
              {t("credential.submit")}
            </Button>
          </Actions>
        </form>
      )}

      <LiveStatus className="mt-4 text-slate-700">{busy ? <Spinner label={busy} /> : null}</LiveStatus>

      {phase.kind === "result" && <Result phase={phase} states={stateList} onTryAgain={tryAgain} onDone={onDone} />}

      {phase.kind === "blocked" && <Blocked reason={phase.reason} onDone={onDone} />}
    </section>
  );
}

function Result({
  phase,
  states,
  onTryAgain,
  onDone,
}: {
  phase: Extract<Phase, { kind: "result" }>;
  states: CredentialState[];
  onTryAgain: () => void;
  onDone: () => void;
}) {
  const t = useTranslations("verify");
  const { check, attemptsLeft } = phase;
  if (check.status === "passed") {
    const until = formatExpiry(check.data.license?.expires_at ?? null);
    const licence = { type: check.data.license_type, state: stateName(states, check.data.state) };
    return (
      <>
        <Notice tone="success">{until ? t("credential.passed", { ...licence, until }) : t("credential.passedNoExpiry", licence)}</Notice>
        <Actions>
          <Button onClick={onDone}>{t("common.continue")}</Button>
        </Actions>
      </>
    );
  }
  const review = check.status === "review";
  return (
    <>
      <Notice tone={review ? "warning" : "error"} title={review ? t("credential.reviewHeading") : t("credential.failedHeading")}>
        <p>{resultMessage(t, check)}</p>
        <p className="mt-2">{attemptsLeft > 0 ? t("common.attemptsLeft", { n: attemptsLeft }) : t("common.noAttemptsLeft")}</p>
      </Notice>
      <Actions>
        {attemptsLeft > 0 && <Button onClick={onTryAgain}>{t("common.tryAgain")}</Button>}
        <Button variant={attemptsLeft > 0 ? "secondary" : "primary"} onClick={onDone}>
          {review ? t("common.continue") : t("credential.continueWithout")}
        </Button>
      </Actions>
    </>
  );
}

function Blocked({ reason, onDone }: { reason: Extract<Phase, { kind: "blocked" }>["reason"]; onDone: () => void }) {
  const t = useTranslations("verify");
  const notice =
    reason === "kyc_required" ? (
      <Notice tone="error" title={t("credential.kycRequired.title")}>
        <p>{t("credential.kycRequired.body")}</p>
      </Notice>
    ) : reason === "no_attempts_left" ? (
      <Notice tone="error" title={t("credential.noAttemptsLeft.title")}>
        <p>{t("credential.noAttemptsLeft.body")}</p>
      </Notice>
    ) : reason === "already_verified" ? (
      <Notice tone="success">{t("credential.alreadyVerified")}</Notice>
    ) : (
      <Notice tone="warning">{t("credential.noStates")}</Notice>
    );
  return (
    <>
      {notice}
      <Actions>
        <Button onClick={onDone}>{t("common.continue")}</Button>
      </Actions>
    </>
  );
}
