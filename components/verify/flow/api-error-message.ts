import { FlowApiError } from "../api/flow-api";
import type { Messages } from "@/lib/i18n";

/** The message for errors any step can meet (network, rate limit, server trouble). */
export function genericErrorMessage(t: Messages, err: unknown): string {
  if (err instanceof FlowApiError) {
    if (err.code === "network") return t.common.networkError;
    if (err.code === "rate_limited") return t.common.rateLimited;
  }
  return t.common.unexpectedError;
}
