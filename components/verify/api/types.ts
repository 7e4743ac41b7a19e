/**
 * The hosted-flow API as the page sees it (docs/hosted-flow.md "Hosted-flow API"): what
 * `GET /api/v2/flow` and the step endpoints answer inside `data`.
 */
import type { components } from "@/sdk/src/schema";

type Schemas = components["schemas"];

/** `GET /api/v2/flow`, as the OpenAPI document declares it (the SDK's generated types: one declaration, on the server). */
export type FlowState = Schemas["FlowState"];
export type SessionStatus = FlowState["status"];
export type FlowStep = FlowState["steps"][number];
export type StoppedBy = NonNullable<FlowState["stopped_by"]>;

type StepInput = NonNullable<FlowStep["input"]>;
export type FrameCounts = Extract<StepInput, { frames: unknown }>["frames"];
export type DocumentInput = Extract<StepInput, { document_types: unknown }>;
export type LivenessInput = Extract<StepInput, { challenge_endpoint: unknown }>;
/** The licence step (`credential`): discovery narrowed to the workflow's licence types, then the lookup. */
export type CredentialInput = Extract<StepInput, { states_endpoint: unknown }>;
export type EndpointInput = { endpoint: StepInput["endpoint"] };

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
export type CredentialState = Schemas["CredentialState"];

/** `GET {states_endpoint}/{state_code}/providers` (spec 2.6): one row per credential; `provider_code` repeats, `credential_code` does not. */
export type CredentialProvider = Schemas["CredentialProvider"];
export type { LicenceInputField as LicenceField } from "@/lib/licence-registries/types";

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
