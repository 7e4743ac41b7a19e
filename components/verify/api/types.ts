/**
 * The hosted-flow API as the page sees it (README "Hosted-flow API"): what
 * `GET /api/v2/flow` and the step endpoints answer inside `data`.
 */
export type SessionStatus = "NOT_STARTED" | "IN_PROGRESS" | "IN_REVIEW" | "APPROVED" | "DECLINED" | "EXPIRED" | "ABANDONED";

export type FrameCounts = { min: number; max: number; recommended: number };

export type DocumentInput = { endpoint: string; document_types: string[] };
export type LivenessInput = { challenge_endpoint: string; endpoint: string; frames: FrameCounts; max_attempts: number };
export type EndpointInput = { endpoint: string };
/** The licence step (`credential`): discovery narrowed to the workflow's licence types, then the lookup. */
export type CredentialInput = { endpoint: string; states_endpoint: string; license_types: string[]; max_attempts: number };

export type FlowStep = {
  type: string;
  status: string;
  attempts: number;
  /** Done already from the person's verified profile (Reusable Verification). */
  reused?: boolean;
  input?: Record<string, unknown> | null;
  derived?: boolean;
};

export type FlowState = {
  session_id: string;
  status: SessionStatus;
  app: { name: string; logo?: string | null };
  workflow: { name: string };
  steps: FlowStep[];
  location: { expected_point: boolean };
  redirect_url: string | null;
  /** Set once the session is over: redirect_url with the status hint. */
  return_url: string | null;
  expires_at: string;
  /** A DECLINED session: the check whose failure decided it before the flow ended (the page explains it). */
  stopped_by?: StoppedBy | null;
};

export type StoppedBy = { type: string; code: string };

export type CheckResult = {
  type: string;
  status: string;
  score?: number | null;
  data?: Record<string, unknown>;
  error?: { code: string; message: string } | null;
};

export type ChecksResponse = { checks: CheckResult[] };

/** The document step also says whether it decided the session (a failed document or an age under the minimum). */
export type DocumentResponse = ChecksResponse & { session_status?: SessionStatus };

export type Challenge = {
  challenge_id: string;
  actions: string[];
  instructions: Array<{ action: string; text: string }>;
  /** The colour challenge: the screen colour of each frame (empty: none, the photosensitive alternative) and how long each shows first. */
  colours: string[];
  colour_settle_ms: number;
  frames: FrameCounts;
  expires_at: string;
  expires_in: number;
  attempts_left: number;
};

/** `GET {states_endpoint}`: the jurisdictions with at least one accepted credential, by name. */
export type CredentialState = { state_name: string; state_code: string };

/** `GET {states_endpoint}/{state_code}/providers` (spec 2.6): one row per credential; `provider_code` repeats, `credential_code` does not. */
export type { CatalogueEntry as CredentialProvider, LicenceInputField as LicenceField } from "@/lib/credentials/types";

/** The `credential` check a lookup recorded (`data.license` is null unless the licence is the verified person's). */
export type CredentialCheck = {
  type: "credential";
  status: "passed" | "failed" | "review";
  data: {
    match: boolean | null;
    license: { status: string; expires_at: string | null } | null;
    license_type: string;
    state: string;
    provider_code: string;
    credential_code: string;
  };
  error: { code: string; message: string } | null;
};

export type CredentialResponse = { checks: CredentialCheck[]; attempts_left: number };

export type FinishResponse = { session_id: string; status: SessionStatus; redirect_url: string | null };

export const DECIDED_STATUSES: ReadonlySet<string> = new Set(["APPROVED", "DECLINED", "IN_REVIEW"]);
export const GONE_STATUSES: ReadonlySet<string> = new Set(["EXPIRED", "ABANDONED"]);
