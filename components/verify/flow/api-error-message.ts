import { FlowApiError } from "../api/flow-api";
import type { VerifyTranslator } from "../i18n";

/** The message for errors any step can meet (network, rate limit, server trouble). */
export function genericErrorMessage(t: VerifyTranslator, err: unknown): string {
  if (err instanceof FlowApiError) {
    if (err.code === "network") return t("common.networkError");
    if (err.code === "rate_limited") return t("common.rateLimited");
  }
  return t("common.unexpectedError");
}
