import { z } from "zod";
import { LICENCE_INPUT_FIELDS, LICENCE_STATUSES } from "@/lib/licence-registries/types";
import { IdentityQuery } from "@/lib/identity/read-identity";
import { CheckReviewBody, CHECKS_A_REVIEWER_SETTLES, CreateSessionBody, ListSessionsQuery, ReviewBody } from "@/lib/sessions/schemas";
import { CHECK_STATUSES, SESSION_STATUSES } from "@/lib/sessions/statuses";
import { EVENT_TYPES, SESSION_EVENT_STATUSES } from "@/lib/webhooks/event-types";
import { DELIVERY_STATES, TEST_EVENT_KINDS } from "@/lib/webhooks/kinds";
import { DeliveriesQuery, SetWebhookActiveBody, TestEventBody } from "@/lib/webhooks/schemas";
import { RollBody } from "@/lib/tenancy/roll-window";
import { CreateWorkflowBody, FEATURES, UpdateWorkflowBody } from "@/lib/workflows/schemas";
import { DOCUMENT_TYPES, FEATURE_SETTINGS, LIVENESS_ACTIONS, SessionSettings } from "@/lib/workflows/settings";
import { operation, operations } from "@/lib/http/operation";

/**
 * The verification API (spec 4.1-4.4, 6): every operation authenticated
 * with a verification API key. Request schemas are the routes' own; the
 * response schemas follow the presenters (lib/sessions/present.ts,
 * lib/workflows/workflows.ts, lib/identity/read-identity.ts,
 * lib/faces/unlink-face.ts, lib/licence-registries/catalogue.ts,
 * lib/webhooks/deliveries.ts, lib/webhooks/test-events.ts).
 */

const timestamp = (description?: string) => z.iso.datetime().meta(description ? { description } : {});

const Feature = z.enum(FEATURES).meta({ id: "Feature", description: "A check a workflow runs (spec 2.3)." });
const SessionStatus = z.enum(SESSION_STATUSES).meta({
  id: "SessionStatus",
  description: "NOT_STARTED, IN_PROGRESS (the person started the hosted flow), IN_REVIEW (waiting for a manual decision), or terminal: APPROVED, DECLINED, EXPIRED (never started), ABANDONED (started, not finished).",
});
const CheckStatus = z.enum(CHECK_STATUSES).meta({
  id: "CheckStatus",
  description: "`passed`, `failed`, `review` (a person decides), `pending` (not run yet, session open), `not_performed` (the session ended without it).",
});

// ---------------------------------------------------------------- params

const SessionIdParams = z.object({ id: z.string().meta({ description: "The session id (`session_id`, a UUID)." }) });
const WorkflowIdParams = z.object({ id: z.string().meta({ description: "The workflow id (a UUID)." }) });
const FaceParams = z.object({
  svc_uuid: z.string().meta({ description: "The gallery face id (`svc_uuid` of the face_uniqueness check's data)." }),
});
const StateParams = z.object({
  state: z.string().meta({ description: "A 2-letter state code (`state_code` of GET /api/v2/credential/states); case-insensitive." }),
});
const WebhookIdParams = z.object({ id: z.string().meta({ description: "The webhook id (`webhook_id` of GET /api/v2/webhooks)." }) });
const DeliveryIdParams = z.object({ id: z.string().meta({ description: "The delivery id (`delivery_id` of GET /api/v2/webhooks/deliveries)." }) });

// ---------------------------------------------------------------- sessions

const CreatedSession = z
  .object({
    session_id: z.string().meta({ description: "Session identifier (UUID)." }),
    status: z.literal("NOT_STARTED"),
    url: z.string().meta({ description: "The hosted verification page to send the person to (the session token rides in its fragment)." }),
    session_token: z.string().meta({ description: "Session-scoped token of the hosted flow's calls. Keep it out of logs." }),
    features: z.array(Feature).meta({ description: "The checks the workflow runs." }),
    redirect_url: z.string().nullable().meta({ description: "Echo of the request." }),
    expires_at: timestamp("Expiry of the session."),
  })
  .meta({ id: "CreatedSession" });

const SessionSummary = z
  .object({
    session_id: z.string(),
    status: SessionStatus,
    workflow_id: z.string(),
    workflow: z.object({ id: z.string(), name: z.string() }).meta({ description: "The workflow as it was when the session was created." }),
    features: z.array(Feature),
    vendor_data: z.string().nullable(),
    redirect_url: z.string().nullable(),
    callback: z.string().nullable().meta({ description: "The per-session webhook destination, if one was given." }),
    language: z.string().nullable().meta({ description: "The hosted pages' language the session was created with; null: the person's browser decides." }),
    metadata: z.record(z.string(), z.unknown()).meta({ description: "The free-form metadata the session was created with (`{}` when none)." }),
    svc_id: z.string().nullable().meta({ description: "The bound account's public id (svc_access_token); null when not bound." }),
    created_at: timestamp(),
    updated_at: timestamp(),
    started_at: timestamp().nullable(),
    completed_at: timestamp().nullable(),
    decided_at: timestamp().nullable(),
    expires_at: timestamp(),
  })
  .meta({ id: "SessionSummary" });

const CheckError = z
  .object({
    code: z.string().meta({ description: "Why the check failed or needs review, e.g. `face_mismatch`, `license_not_found`, `location_unavailable`, `not_performed`." }),
    message: z.string(),
    reason: z.string().optional().meta({ description: "location: what the browser reported (`permission_denied`, `position_unavailable`, `timeout`)." }),
  })
  .nullable()
  .meta({ id: "CheckError" });

const reused = z.boolean().meta({ description: "true: taken from the bound account's proofs instead of run in this session." });

const ManualReview = z
  .object({
    status: z.enum(["passed", "failed"]),
    reason: z.string().meta({ description: "The reviewer's reason, as sent." }),
    reviewed_at: timestamp(),
  })
  .meta({ id: "ManualReview", description: "Present once a reviewer settled the check (POST /api/v2/session/{id}/checks/{type}/review)." });

const IdVerificationData = z.object({
  reused: reused.optional(),
  document_type: z.enum(DOCUMENT_TYPES).optional(),
  source: z.enum(["pdf417", "mrz"]).nullable().optional().meta({ description: "Where the fields were read: the PDF417 barcode or the machine-readable zone." }),
  confidence: z.number().optional(),
  checks: z
    .object({
      read: z.boolean(),
      check_digits_valid: z.boolean().nullable(),
      not_expired: z.boolean(),
      portrait_found: z.boolean(),
      front_matches_back: z.boolean().nullable(),
    })
    .optional(),
  front_mismatched_fields: z.array(z.string()).optional().meta({ description: "Names (never values) of the front's fields that disagree with the barcode or MRZ." }),
  verified_at: timestamp("When the reused document was verified (reused only).").optional(),
  manual_review: ManualReview.optional(),
});

const AgeData = z.object({
  is_18_plus: z.boolean().nullable().optional(),
  is_21_plus: z.boolean().nullable().optional(),
  minimum_age: z.number().int().optional(),
  meets_minimum_age: z.boolean().nullable().optional(),
  reused: reused.optional(),
});

const LivenessData = z.object({
  live_score: z.number().optional(),
  actions: z.array(z.enum(LIVENESS_ACTIONS)).optional().meta({ description: "The actions the challenge asked for." }),
  frames: z.number().int().optional(),
  manual_review: ManualReview.optional(),
});

const FaceMatchData = z.object({
  similarity: z.number().optional(),
  threshold: z.number().optional(),
  reference: z.enum(["document", "enrolled_face"]).optional().meta({ description: "What the selfie was compared with." }),
  document_similarity: z.number().optional().meta({ description: "Against a new document's portrait too, when the reference is the enrolled face." }),
  manual_review: ManualReview.optional(),
});

const CredentialData = z.object({
  match: z.boolean().nullable().optional(),
  license: z
    .object({ status: z.enum(LICENCE_STATUSES), expires_at: timestamp().nullable() })
    .nullable()
    .optional()
    .meta({ description: "The licence found for the verified person; null when none (or another person's)." }),
  license_type: z.string().optional(),
  state: z.string().optional(),
  provider_code: z.string().optional(),
  credential_code: z.string().optional(),
});

const LocationData = z.object({
  lat: z.number().optional(),
  lng: z.number().optional(),
  accuracy_m: z.number().optional(),
  distance_m: z.number().optional().meta({ description: "Distance from the expected point, when one was given." }),
  radius_m: z.number().nullable().optional(),
  match: z.boolean().nullable().optional().meta({ description: "Inside the radius; null without an expected point and radius." }),
});

const FaceUniquenessData = z.object({
  svc_uuid: z.string().optional().meta({ description: "The face's gallery id: the existing one (duplicate) or the new enrollment." }),
  duplicate: z.boolean().optional(),
  enrolled: z.boolean().optional(),
  similarity: z.number().nullable().optional(),
  threshold: z.number().optional(),
  decline_threshold: z.number().optional(),
});

const CHECK_DATA = {
  id_verification: IdVerificationData,
  liveness: LivenessData,
  face_match: FaceMatchData,
  credential: CredentialData,
  age: AgeData,
  location: LocationData,
  face_uniqueness: FaceUniquenessData,
} as const satisfies Record<(typeof FEATURES)[number], z.ZodObject>;

function checkOf<T extends keyof typeof CHECK_DATA>(type: T) {
  return z
    .object({
      type: z.literal(type),
      status: CheckStatus,
      score: z.number().optional(),
      data: CHECK_DATA[type].meta({ description: "The check's result; `{}` while pending or when not performed." }),
      error: CheckError,
    })
    .meta({ id: `Check_${type}` });
}


const Check = z
  .discriminatedUnion("type", [
    checkOf("id_verification"),
    checkOf("liveness"),
    checkOf("face_match"),
    checkOf("credential"),
    checkOf("age"),
    checkOf("location"),
    checkOf("face_uniqueness"),
  ])
  .meta({ id: "Check", description: "One check of the session (spec 2.2); `data` depends on `type`." });

const DecisionIdentity = z
  .object({
    svc_id: z.string(),
    shared: z.boolean().meta({
      description: "Whether the profile is released: true once this session is APPROVED and while the person shares their proofs with this project; false otherwise (open, in review, declined, expired, revoked), with nothing of the profile.",
    }),
    full_name: z.string().nullable().meta({ description: "The name as verified on the document; null without a valid document proof." }),
    licenses: z.array(
      z.object({
        license_type: z.string(),
        license_state: z.string().nullable(),
        status: z.string().nullable(),
        expire_date: z.string().nullable().meta({ description: "ISO date." }),
      }),
    ),
    verified_at: timestamp().nullable(),
    stale: z.boolean(),
  })
  .nullable()
  .meta({
    id: "DecisionIdentity",
    description: "The bound account's reusable profile; null only for a session without an account (spec 2.2). Filled (`shared: true`) once the session is APPROVED and while the person shares it with this project; otherwise only `svc_id` (`shared: false`, `full_name` null, no licences).",
  });

const Decision = z
  .object({
    session_id: z.string(),
    status: SessionStatus,
    vendor_data: z.string().nullable(),
    svc_id: z.string().nullable().meta({ description: "The bound account's id; null when not bound." }),
    origin: z.enum(["fresh", "reused", "mixed"]).meta({ description: "`fresh`: every check ran in this session; `reused`: every one came from the account's proofs; `mixed`: both." }),
    decision: z
      .enum(["pending", "in_review", "approved", "declined", "expired", "abandoned"])
      .meta({ description: "`pending` while the session is open, else the status in lower case." }),
    checks: z.array(Check).meta({ description: "One entry per feature of the session." }),
    verifications: z.record(z.string(), z.object({ status: CheckStatus })).meta({ description: "The checks' statuses keyed by check type." }),
    identity: DecisionIdentity,
    decided_at: timestamp().nullable(),
  })
  .meta({ id: "Decision" });

// ---------------------------------------------------------------- workflows

const WorkflowSettings = z
  .object({
    session: SessionSettings,
    ...Object.fromEntries(Object.entries(FEATURE_SETTINGS).map(([feature, schema]) => [feature, schema.optional()])),
  })
  .meta({ id: "WorkflowSettings", description: "`session` plus one object per feature of the workflow, every default filled in (docs/sessions.md \"Workflow settings\")." });

const Workflow = z
  .object({
    id: z.string().meta({ description: "Used as `workflow_id` when creating sessions." }),
    name: z.string(),
    features: z.array(Feature).meta({ description: "Features a chosen one needs are added (`age` and `credential` bring `id_verification`)." }),
    settings: WorkflowSettings,
    is_active: z.boolean(),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: "Workflow" });

// ---------------------------------------------------------------- identity, faces, credentials

const ReusableIdentity = z
  .object({
    svc_id: z.string().meta({ description: "Public account id." }),
    pseudonym: z.string().meta({ description: "The account's pseudonym for this project." }),
    age_bands: z.object({ is_18_plus: z.boolean().nullable(), is_21_plus: z.boolean().nullable() }),
    licenses: z.array(
      z.object({
        license_type: z.string(),
        status: z.string().nullable(),
        registry_status: z.string().nullable(),
        license_number: z.string().nullable(),
        state: z.string().nullable(),
        issuing_authority: z.string().nullable(),
        expires_on: z.string().nullable().meta({ description: "ISO date." }),
      }),
    ),
    verified_at: timestamp().nullable(),
    stale: z.boolean(),
  })
  .meta({ id: "ReusableIdentity", description: "Spec 2.4: proofs only, never the legal name or date of birth." });

/** Spec 2.6, shared with the hosted flow's discovery (hosted-flow.ts). */
export const CredentialState = z
  .object({ state_name: z.string(), state_code: z.string().meta({ description: "2-letter code." }) })
  .meta({ id: "CredentialState" });

export const CredentialProvider = z
  .object({
    provider_code: z.string().meta({ description: "Not unique per row: one provider serves many credentials." }),
    provider_display_name: z.string(),
    credential_code: z.string().meta({ description: "Unique: key a selection list on it." }),
    credential_name: z.string().meta({ description: "Passed on as `license_type`." }),
    state_code: z.string(),
    remote_code: z.string(),
    required_fields: z.array(z.enum(LICENCE_INPUT_FIELDS)).meta({ description: "Inputs to collect for this provider." }),
  })
  .meta({ id: "CredentialProvider" });

// ---------------------------------------------------------------- webhooks

const WebhookEndpoint = z
  .object({
    webhook_id: z.string(),
    url: z.string(),
    approved: z.boolean().meta({ description: "Only approved, active webhooks receive events (and may be a session's `callback`)." }),
    active: z.boolean().meta({ description: "False while disabled: no new events are queued for it, and its pending deliveries are held until it is enabled." }),
    created_at: timestamp(),
    previous_secret_expires_at: timestamp(
      "Extension: while a rolled-away signing secret still signs deliveries (beside the new one), when it stops; else null.",
    ).nullable(),
  })
  .meta({ id: "WebhookEndpoint" });

const WebhookDelivery = z
  .object({
    delivery_id: z.string(),
    event_id: z.string(),
    event_type: z.enum(EVENT_TYPES),
    test: z.boolean().meta({ description: "A simulated event of the test tooling." }),
    session_id: z.string().nullable(),
    status: z.enum(SESSION_EVENT_STATUSES).nullable().meta({ description: "The session status the event reports." }),
    bad_signature: z.boolean().meta({ description: "The bad-signature test delivery: signed with a wrong secret on purpose." }),
    forgery: z
      .enum(["refused", "accepted", "unanswered"])
      .nullable()
      .meta({
        description:
          "The bad-signature test's result (null for other deliveries): `refused` (your receiver answered 4xx: it checks signatures), `accepted` (it answered 2xx to a forged signature: fix your receiver, although the delivery succeeded), `unanswered` (no answer says either yet: pending, 5xx or unreachable).",
      }),
    webhook_id: z.string().nullable().meta({ description: "Null once the webhook was deleted (`url` still says where the delivery went)." }),
    url: z.string(),
    state: z.enum(DELIVERY_STATES).meta({
      description: "`cancelled`: the webhook was deleted while the delivery was pending; it is never attempted again.",
    }),
    held: z.boolean().meta({ description: "Pending while its webhook is disabled: not attempted until the webhook is enabled again." }),
    attempt_count: z.number().int(),
    next_attempt_at: timestamp().nullable().meta({ description: "When pending and not held: the next attempt." }),
    last_status: z.number().int().nullable().meta({ description: "The HTTP status of the last attempt." }),
    delivered_at: timestamp().nullable(),
    created_at: timestamp(),
    attempts: z.array(
      z.object({
        number: z.number().int(),
        outcome: z
          .enum(["succeeded", "failed", "in_flight", "interrupted"])
          .meta({ description: "`interrupted`: the worker stopped mid-attempt (the POST may have arrived) and the delivery was tried again." }),
        started_at: timestamp(),
        ended_at: timestamp().nullable(),
        duration_ms: z.number().int().nullable(),
        status_code: z.number().int().nullable(),
        response_snippet: z
          .string()
          .nullable()
          .meta({ description: "The first 1 KB of the answer; null when the receiver's address is not public (even one inside WEBHOOK_ALLOWED_NETWORKS), or when there was no answer." }),
        error: z.string().nullable(),
      }),
    ).meta({ description: "Oldest first." }),
  })
  .meta({ id: "WebhookDelivery" });

// ---------------------------------------------------------------- operations

export const createSession = operation({
    method: "post",
    path: "/api/v2/session",
    operationId: "createSession",
    summary: "Create a verification session",
    description:
      "Starts a hosted session of a workflow: send the person to `url`. The workflow's features and settings are frozen into the session. `callback` must exactly match an active, approved HTTPS webhook of the project. `svc_access_token` binds the session to a connected account, whose valid proofs are reused. The wallet must cover every check of the workflow (nothing is charged until a check runs).",
    tag: "Sessions",
    auth: "apiKey",
    body: CreateSessionBody,
    success: { status: 201, description: "Created.", schema: CreatedSession },
    errors: ["invalid_token", "insufficient_funds", "workflow_not_found", ["invalid_request", 422], "callback_not_allowed"],
  });

export const listSessions = operation({
    method: "get",
    path: "/api/v2/session",
    operationId: "listSessions",
    summary: "List sessions",
    description: "Newest first by `created_at`; equality filters; `limit` (default 50, no maximum). Not paginated.",
    tag: "Sessions",
    auth: "apiKey",
    query: ListSessionsQuery,
    success: { status: 200, description: "The sessions.", schema: z.object({ sessions: z.array(SessionSummary) }) },
    errors: [],
  });

export const getSession = operation({
    method: "get",
    path: "/api/v2/session/{id}",
    operationId: "getSession",
    summary: "Retrieve a session summary",
    tag: "Sessions",
    auth: "apiKey",
    params: SessionIdParams,
    success: { status: 200, description: "The session.", schema: SessionSummary },
    errors: ["session_not_found"],
  });

export const getSessionDecision = operation({
    method: "get",
    path: "/api/v2/session/{id}/decision",
    operationId: "getSessionDecision",
    summary: "The authoritative decision, with every check",
    description: "The redirect-back `?status=` is a hint only; this (or a signed webhook) is authoritative.",
    tag: "Sessions",
    auth: "apiKey",
    params: SessionIdParams,
    success: { status: 200, description: "The decision.", schema: Decision },
    errors: ["session_not_found"],
  });

export const reviewSession = operation({
    method: "patch",
    path: "/api/v2/session/{id}/status",
    operationId: "reviewSession",
    summary: "Decide an IN_REVIEW session by hand",
    description:
      "APPROVED needs passed id_verification, liveness and face_match checks; DECLINED is always possible. Emits the verification event.",
    tag: "Sessions",
    auth: "apiKey",
    params: SessionIdParams,
    body: ReviewBody,
    success: { status: 200, description: "The session after the decision.", schema: SessionSummary },
    errors: ["session_not_found", "review_not_pending", "required_face_checks_incomplete"],
  });

export const reviewCheck = operation({
    method: "post",
    path: "/api/v2/session/{id}/checks/{type}/review",
    operationId: "reviewCheck",
    summary: "Settle a check in review by hand (extension of spec 3.1)",
    description:
      "Spec 3.1 allows a manual APPROVED only when id_verification, liveness and face_match all passed, so a session one of them sent to review could otherwise only be declined. This extension lets a reviewer settle that check itself. A liveness check goes to `review` when the person used the photosensitive alternative to the colour challenge (`colour_challenge_skipped`) or the colour response was unclear (`colour_response_unclear`); a face_match when the similarity falls in the workflow's `face_match.review_margin` under the threshold; an id_verification when the document's reading is borderline. After looking at the kept images (the burst's frames; the document beside the best liveness frame; both sides of the document: kept until the decision, shown in the portal's review queue), a reviewer records `passed` or `failed`, with a short reason. `failed` sets the check's error to `manual_review_failed` (\"did not confirm a live person\", \"did not confirm the same person\", \"did not accept the document\"). Only while the session is IN_REVIEW and the check is in `review`. This settles the check, not the session: decide the session afterwards with PATCH /api/v2/session/{id}/status (APPROVED needs id_verification, liveness and face_match passed). Audited as `check.manual_review`. Another `{type}` is 400 `invalid_request` naming the three.",
    tag: "Sessions",
    auth: "apiKey",
    params: SessionIdParams.extend({
      type: z.enum(CHECKS_A_REVIEWER_SETTLES).meta({ description: "The check to settle: one of the three manual approval needs." }),
    }),
    body: CheckReviewBody,
    success: {
      status: 200,
      description: "The settled check (its `data.manual_review` records the review) and the session, still IN_REVIEW.",
      schema: z.object({ check: Check, session: SessionSummary }),
    },
    errors: ["session_not_found", "review_not_pending", "check_not_in_review"],
  });

export const listWorkflows = operation({
    method: "get",
    path: "/api/v2/workflows",
    operationId: "listWorkflows",
    summary: "List workflows",
    description: "The project's workflows (not deleted), newest first.",
    tag: "Workflows",
    auth: "apiKey",
    success: { status: 200, description: "The workflows.", schema: z.object({ workflows: z.array(Workflow) }) },
    errors: [],
  });

export const createWorkflow = operation({
    method: "post",
    path: "/api/v2/workflows",
    operationId: "createWorkflow",
    summary: "Create a workflow",
    description:
      "Settings are validated per feature and every default is filled in. A feature the server cannot run now (e.g. `credential` without a licence registry) is refused.",
    tag: "Workflows",
    auth: "apiKey",
    body: CreateWorkflowBody,
    success: { status: 201, description: "Created.", schema: z.object({ workflow: Workflow }) },
    errors: [],
  });

export const getWorkflow = operation({
    method: "get",
    path: "/api/v2/workflows/{id}",
    operationId: "getWorkflow",
    summary: "Retrieve a workflow",
    tag: "Workflows",
    auth: "apiKey",
    params: WorkflowIdParams,
    success: { status: 200, description: "The workflow.", schema: z.object({ workflow: Workflow }) },
    errors: ["workflow_not_found"],
  });

export const updateWorkflow = operation({
    method: "patch",
    path: "/api/v2/workflows/{id}",
    operationId: "updateWorkflow",
    summary: "Update a workflow",
    description:
      "`settings` replaces the settings of the keys it names and keeps the others; settings of removed features are dropped. Applies to sessions created afterwards only.",
    tag: "Workflows",
    auth: "apiKey",
    params: WorkflowIdParams,
    body: UpdateWorkflowBody,
    success: { status: 200, description: "The updated workflow.", schema: z.object({ workflow: Workflow }) },
    errors: ["workflow_not_found"],
  });

export const deleteWorkflow = operation({
    method: "delete",
    path: "/api/v2/workflows/{id}",
    operationId: "deleteWorkflow",
    summary: "Delete a workflow",
    description: "Existing sessions keep working; new sessions cannot use it.",
    tag: "Workflows",
    auth: "apiKey",
    params: WorkflowIdParams,
    success: { status: 200, description: "Deleted.", schema: z.object({ deleted: z.literal(true) }) },
    errors: ["workflow_not_found"],
  });

export const getIdentity = operation({
    method: "get",
    path: "/api/v2/identity",
    operationId: "getIdentity",
    summary: "Read a reusable verified identity",
    description:
      "By `svc_id` (or its alias `legacy_id`) or `vendor_data`. Only accounts that shared their proofs with this project through an approved session, not revoked, with at least one proof not expired.",
    tag: "Identity",
    auth: "apiKey",
    query: IdentityQuery,
    success: { status: 200, description: "The identity.", schema: z.object({ identity: ReusableIdentity }) },
    errors: ["missing_parameter", "not_found"],
  });

export const unlinkFace = operation({
    method: "delete",
    path: "/api/v2/face-uniqueness/{svc_uuid}",
    operationId: "unlinkFace",
    summary: "Forget a face (GDPR unlink)",
    description:
      "Unlinks this project's active enrollment of the face; a face with no active enrollment left is deleted. Needs a workflow (deleted ones count) with the face_uniqueness feature.",
    tag: "Identity",
    auth: "apiKey",
    params: FaceParams,
    success: {
      status: 200,
      description: "Unlinked.",
      schema: z
        .object({
          svc_uuid: z.string(),
          unlinked: z.literal(true),
          deleted: z.boolean().meta({ description: "true only when the face was fully removed." }),
        })
        .meta({ id: "FaceUnlinkResult" }),
    },
    errors: ["feature_not_allowed", "not_found"],
  });

export const listCredentialStates = operation({
    method: "get",
    path: "/api/v2/credential/states",
    operationId: "listCredentialStates",
    summary: "Jurisdictions with licence providers",
    tag: "Credentials",
    auth: "apiKey",
    success: { status: 200, description: "The states, by name.", schema: z.object({ states: z.array(CredentialState) }) },
    errors: [],
  });

export const listCredentialProviders = operation({
    method: "get",
    path: "/api/v2/credential/states/{state}/providers",
    operationId: "listCredentialProviders",
    summary: "Licence providers and credentials of a state",
    tag: "Credentials",
    auth: "apiKey",
    params: StateParams,
    success: { status: 200, description: "The providers' credentials.", schema: z.object({ providers: z.array(CredentialProvider) }) },
    errors: ["not_found"],
  });

export const listWebhooks = operation({
    method: "get",
    path: "/api/v2/webhooks",
    operationId: "listWebhooks",
    summary: "List webhook endpoints",
    description: "Oldest first; never the signing secrets.",
    tag: "Webhooks",
    auth: "apiKey",
    success: { status: 200, description: "The endpoints.", schema: z.object({ webhooks: z.array(WebhookEndpoint) }) },
    errors: [],
  });

export const setWebhookActive = operation({
    method: "patch",
    path: "/api/v2/webhooks/{id}",
    operationId: "setWebhookActive",
    summary: "Disable or enable a webhook",
    description:
      "`active: false` disables it: no new events are queued for it (nor sent later) and it is no session's `callback`; its pending deliveries are held, not attempted, until `active: true` enables it again, when they go out at once. An attempt already in flight finishes. Audited.",
    tag: "Webhooks",
    auth: "apiKey",
    params: WebhookIdParams,
    body: SetWebhookActiveBody,
    success: { status: 200, description: "The webhook as it is now.", schema: z.object({ webhook: WebhookEndpoint }) },
    errors: ["not_found"],
  });

export const deleteWebhook = operation({
    method: "delete",
    path: "/api/v2/webhooks/{id}",
    operationId: "deleteWebhook",
    summary: "Delete a webhook",
    description:
      "Final: the webhook and its signing secret are deleted, its pending deliveries end `cancelled` and are never attempted again; its past deliveries stay in the log with `webhook_id` null. Audited.",
    tag: "Webhooks",
    auth: "apiKey",
    params: WebhookIdParams,
    success: {
      status: 200,
      description: "Deleted.",
      schema: z.object({
        webhook_id: z.string(),
        deleted: z.literal(true),
        cancelled_deliveries: z.number().int().meta({ description: "How many pending deliveries were cancelled." }),
      }),
    },
    errors: ["not_found"],
  });

export const rollWebhookSecret = operation({
    method: "post",
    path: "/api/v2/webhooks/{id}/secret",
    operationId: "rollWebhookSecret",
    summary: "Roll a webhook's signing secret",
    description:
      "Extension (not in the spec). A new `whsec_` secret, in this answer only, signs every delivery from now on; the previous one signs them too (two comma-separated signatures in `X-Svc-Signature`) for `expire_previous_in` seconds (default 24 hours; 0 stops it at once), so receivers can switch without failing a delivery. Rolling again during the window ends it: the secret being replaced becomes the previous one. Audited.",
    tag: "Webhooks",
    auth: "apiKey",
    params: WebhookIdParams,
    body: RollBody,
    success: {
      status: 200,
      description: "The new secret, and the webhook with `previous_secret_expires_at`.",
      schema: z.object({ webhook: WebhookEndpoint, secret: z.string().meta({ description: "The new signing secret (`whsec_...`); shown once." }) }),
    },
    errors: ["not_found"],
  });

export const sendTestWebhookEvent = operation({
    method: "post",
    path: "/api/v2/webhooks/{id}/test",
    operationId: "sendTestWebhookEvent",
    summary: "Send a simulated event to a webhook",
    description:
      "Signed with the webhook's real secret, with `test: true` and a session id beginning `sess_test_`; touches no session. `duplicate` delivers one approved event twice with the same event id; `bad_signature` signs an approved event with a wrong secret. To a disabled webhook it is held until the webhook is enabled.",
    tag: "Webhooks",
    auth: "apiKey",
    params: WebhookIdParams,
    body: TestEventBody,
    success: {
      status: 202,
      description: "Queued for delivery.",
      schema: z.object({
        event_id: z.string(),
        kind: z.enum(TEST_EVENT_KINDS),
        deliveries: z.number().int().meta({ description: "How many deliveries were queued (2 for `duplicate`)." }),
      }),
    },
    errors: ["not_found"],
  });

export const listWebhookDeliveries = operation({
    method: "get",
    path: "/api/v2/webhooks/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "The delivery log",
    description: "Newest first, each delivery with its attempts.",
    tag: "Webhooks",
    auth: "apiKey",
    query: DeliveriesQuery,
    success: { status: 200, description: "The deliveries.", schema: z.object({ deliveries: z.array(WebhookDelivery) }) },
    errors: [],
  });

export const resendWebhookDelivery = operation({
    method: "post",
    path: "/api/v2/webhooks/deliveries/{id}/resend",
    operationId: "resendWebhookDelivery",
    summary: "Resend a delivery",
    description: "A new delivery of the same event (same event id) to the same endpoint, due now (held while the webhook is disabled; 404 once it was deleted).",
    tag: "Webhooks",
    auth: "apiKey",
    params: DeliveryIdParams,
    success: {
      status: 202,
      description: "Queued.",
      schema: z.object({ delivery_id: z.string(), event_id: z.string(), resent_from: z.string() }),
    },
    errors: ["not_found"],
  });

export const VERIFICATION_OPERATIONS = operations([
  createSession,
  listSessions,
  getSession,
  getSessionDecision,
  reviewSession,
  reviewCheck,
  listWorkflows,
  createWorkflow,
  getWorkflow,
  updateWorkflow,
  deleteWorkflow,
  getIdentity,
  unlinkFace,
  listCredentialStates,
  listCredentialProviders,
  listWebhooks,
  setWebhookActive,
  deleteWebhook,
  rollWebhookSecret,
  sendTestWebhookEvent,
  listWebhookDeliveries,
  resendWebhookDelivery,
]);
