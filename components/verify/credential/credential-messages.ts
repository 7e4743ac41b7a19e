import { FlowApiError } from "../api/flow-api";
import type { CredentialCheck, CredentialState, LicenceField } from "../api/types";
import { genericErrorMessage } from "../flow/api-error-message";
import type { VerifyTranslator } from "../i18n";

/**
 * The licence step's words for what the server answered: a lookup's result
 * (one message per check error code) and a refused lookup (the HTTP errors
 * of POST /api/v2/credential), all from the `verify` messages (messages/<locale>.json).
 */

export const LICENCE_FIELDS: readonly LicenceField[] = ["license_number", "npi_number"];

/** A licence's expiry (`expires_at`, the end of that day in UTC) as a date in the person's language. */
export function formatExpiry(expiresAt: string | null): string | null {
  if (!expiresAt) return null;
  const date = new Date(expiresAt);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(undefined, { dateStyle: "long", timeZone: "UTC" }).format(date);
}

export function stateName(states: readonly CredentialState[], code: string): string {
  return states.find((s) => s.state_code === code)?.state_name ?? code;
}

type ResultKey = Extract<Parameters<VerifyTranslator["has"]>[0], `credential.${"inactive" | "failures"}.${string}`>;

/** The message `credential.<group>.<code>`, or `credential.<group>.<fallback>` for a code the catalogue does not know. */
function resultText(t: VerifyTranslator, group: "inactive" | "failures", code: string, fallback: string): string {
  const key = `credential.${group}.${code}` as ResultKey;
  return t(t.has(key) ? key : (`credential.${group}.${fallback}` as ResultKey));
}

/** The explanation of a lookup that did not pass (failed or review), by its error code. */
export function resultMessage(t: VerifyTranslator, check: CredentialCheck): string {
  const code = check.error?.code ?? "";
  if (code === "license_inactive") return resultText(t, "inactive", check.data.license?.status ?? "inactive", "inactive");
  return resultText(t, "failures", code, "other");
}

/** A lookup the server refused before asking any registry. */
export type SubmitProblem =
  /** The details to fix, next to their inputs (400 invalid_request `fields.*`), or a message above the button. */
  | { kind: "fields"; fields: Partial<Record<LicenceField, string>>; message: string | null }
  /** The step cannot go on: explained, then Continue. */
  | { kind: "blocked"; reason: "kyc_required" | "already_verified" | "no_attempts_left" }
  /** Something that may work on another try (network, rate limit, server trouble). */
  | { kind: "retry"; message: string };

export function submitProblemOf(t: VerifyTranslator, err: unknown, values: Partial<Record<LicenceField, string>>): SubmitProblem {
  if (!(err instanceof FlowApiError)) return { kind: "retry", message: t("common.unexpectedError") };
  switch (err.code) {
    case "kyc_required":
      return { kind: "blocked", reason: "kyc_required" };
    case "credential_already_verified":
      return { kind: "blocked", reason: "already_verified" };
    case "too_many_attempts":
      return { kind: "blocked", reason: "no_attempts_left" };
    case "invalid_request": {
      const errors = (err.data?.errors ?? {}) as Record<string, unknown>;
      const fields: Partial<Record<LicenceField, string>> = {};
      for (const field of LICENCE_FIELDS) {
        if (!(`fields.${field}` in errors)) continue;
        const empty = !(values[field] ?? "").trim();
        fields[field] = empty ? t(`credential.fieldErrors.empty.${field}`) : t(`credential.fieldErrors.invalid.${field}`);
      }
      if (Object.keys(fields).length) return { kind: "fields", fields, message: t("credential.fixFields") };
      if ("credential_code" in errors || "license_type" in errors) return { kind: "fields", fields, message: t("credential.notAccepted") };
      return { kind: "retry", message: t("common.unexpectedError") };
    }
    default:
      return { kind: "retry", message: genericErrorMessage(t, err) };
  }
}
