import { z } from "zod";
import { DocumentFields } from "@/lib/checks/run-document-check";
import { CredentialBody } from "@/lib/credentials/run-credential-check";
import { LICENCE_STATUSES } from "@/lib/licence-registries/types";
import { LocationBody } from "@/lib/flow/submit-location";
import { BURST_FRAMES, BurstFields, ChallengeBody, CHALLENGE_TTL_SECONDS, COLOUR_SETTLE_MS } from "@/lib/liveness/challenges";
import { SCREEN_COLOURS } from "@/lib/liveness/colour-challenge";
import { CHECK_STATUSES, SESSION_STATUSES } from "@/lib/sessions/statuses";
import { FEATURES } from "@/lib/workflows/schemas";
import { DOCUMENT_TYPES, LIVENESS_ACTIONS } from "@/lib/workflows/settings";
import { CredentialProvider, CredentialState } from "./verification";
import { operation, operations, type OperationError, type Upload } from "@/lib/http/operation";

/**
 * The hosted flow's calls (the session token of POST /api/v2/session):
 * what the hosted page does, documented for custom front ends. Request
 * schemas are the routes' own; multipart uploads are described (read by
 * lib/http/read-upload.ts). The response schemas follow
 * lib/flow/flow-state.ts, lib/flow/finish-flow.ts, lib/checks/run-*.ts,
 * lib/liveness/challenges.ts, lib/flow/submit-location.ts,
 * lib/credentials/run-credential-check.ts and lib/licence-registries/catalogue.ts.
 */

const timestamp = (description?: string) => z.iso.datetime().meta(description ? { description } : {});

// ---------------------------------------------------------------- the checks a step returns

const RanStatus = z.enum(["passed", "failed", "review"]);
const FlowCheckError = z
  .object({
    code: z.string().meta({ description: "Why the check failed or needs review, e.g. `face_mismatch`, `document_expired`, `license_not_found`." }),
    message: z.string(),
  })
  .nullable();

function flowCheck<T extends (typeof FEATURES)[number]>(type: T, data: z.ZodObject, withScore: boolean) {
  return z
    .object({
      type: z.literal(type),
      status: RanStatus,
      ...(withScore ? { score: z.number() } : {}),
      data,
      error: FlowCheckError,
    })
    .meta({ id: `FlowCheck_${type}` });
}

const FlowCheck = z
  .discriminatedUnion("type", [
    flowCheck(
      "id_verification",
      z.object({
        reused: z.literal(false),
        document_type: z.enum(DOCUMENT_TYPES),
        source: z.enum(["pdf417", "mrz"]).nullable().meta({ description: "Where the fields were read: the PDF417 barcode or the machine-readable zone." }),
        confidence: z.number(),
        checks: z.object({
          read: z.boolean(),
          check_digits_valid: z.boolean().nullable(),
          not_expired: z.boolean(),
          portrait_found: z.boolean(),
          front_matches_back: z.boolean().nullable(),
        }),
        front_mismatched_fields: z.array(z.string()).meta({ description: "Names (never values) of the front's fields that disagree with the barcode or MRZ." }),
      }),
      true,
    ),
    flowCheck(
      "age",
      z.object({
        is_18_plus: z.boolean().nullable(),
        is_21_plus: z.boolean().nullable(),
        minimum_age: z.number().int(),
        meets_minimum_age: z.boolean().nullable(),
      }),
      false,
    ),
    flowCheck("liveness", z.object({ live_score: z.number() }), true),
    flowCheck(
      "face_match",
      z.object({
        similarity: z.number(),
        threshold: z.number(),
        reference: z.enum(["document", "enrolled_face"]).meta({ description: "What the selfie was compared with." }),
        document_similarity: z.number().optional().meta({ description: "Against a new document's portrait too, when the reference is the enrolled face." }),
      }),
      true,
    ),
    flowCheck(
      "face_uniqueness",
      z.object({
        svc_uuid: z.string().meta({ description: "The existing face (duplicate) or the new enrollment." }),
        duplicate: z.boolean(),
        enrolled: z.literal(true).optional(),
        similarity: z.number().nullable().optional(),
        threshold: z.number().meta({ description: "From this similarity a face may already be enrolled: review (`possible_duplicate_face`)." }),
        decline_threshold: z.number().meta({ description: "From this similarity the match is certain: failed (`duplicate_face`)." }),
      }),
      false,
    ),
    flowCheck(
      "credential",
      z.object({
        match: z.boolean().nullable(),
        license: z
          .object({ status: z.enum(LICENCE_STATUSES), expires_at: timestamp().nullable() })
          .nullable()
          .meta({ description: "The verified person's licence; null when none (or another person's)." }),
        license_type: z.string(),
        state: z.string(),
        provider_code: z.string(),
        credential_code: z.string(),
      }),
      false,
    ),
  ])
  .meta({ id: "FlowCheck", description: "A check a step ran (or re-ran), as recorded for the session." });

/** A liveness burst's parts and refusals: POST /api/v2/antispoof and /api/v2/antispoof/identity (lib/checks/run-liveness.ts). */
const BURST_UPLOAD: Upload = {
  files: {
    frames: {
      multiple: true,
      description: `${BURST_FRAMES.min} to ${BURST_FRAMES.max} image files, in order (also accepted as \`frames[]\`, \`frame\` or \`frame_<n>\`).`,
    },
  },
  fields: BurstFields,
};
const BURST_ERRORS: readonly OperationError[] = [
      "liveness_already_passed",
      "frames_required",
      "invalid_frames",
      "too_many_frames",
      "invalid_challenge",
      "challenge_expired",
      ["invalid_image", 422],
      "no_face",
      "face_rescan_required",
      "image_too_large",
      "liveness_unavailable",
      "insufficient_funds",
];

const StepChecks = z.object({
  checks: z.array(FlowCheck).meta({ description: "The checks this step ran: its own, then any that follow from it (age, face match, face uniqueness)." }),
});

// ---------------------------------------------------------------- flow state

const StepInput = z.union([
  z.object({
    endpoint: z.literal("/api/v2/document"),
    document_types: z.array(z.enum(DOCUMENT_TYPES)).meta({ description: "The documents the workflow accepts." }),
  }),
  z.object({
    challenge_endpoint: z.literal("/api/v2/antispoof/challenge"),
    endpoint: z.literal("/api/v2/antispoof"),
    frames: z.object({ min: z.number().int(), max: z.number().int(), recommended: z.number().int() }),
    max_attempts: z.number().int(),
  }),
  z.object({ endpoint: z.literal("/api/v2/location") }),
  z.object({
    endpoint: z.literal("/api/v2/credential"),
    states_endpoint: z.literal("/api/v2/flow/credential/states"),
    license_types: z.array(z.string()).meta({ description: "The licence types the workflow accepts; empty: any." }),
    max_attempts: z.number().int(),
  }),
  z.object({ endpoint: z.literal("/api/v2/face-uniqueness") }),
]);

const FlowState = z
  .object({
    session_id: z.string(),
    status: z.enum(SESSION_STATUSES),
    app: z.object({ name: z.string(), logo: z.string().nullable() }).meta({ description: "Who asks." }),
    workflow: z.object({ name: z.string() }),
    steps: z.array(
      z.object({
        type: z.enum(FEATURES),
        status: z.enum(CHECK_STATUSES),
        attempts: z.number().int().meta({ description: "Tries used (liveness: challenges issued)." }),
        reused: z.boolean().meta({ description: "Done already from the proofs of the person's account." }),
        input: StepInput.optional().meta({ description: "What the page asks of the person and where it posts it." }),
        derived: z.literal(true).optional().meta({ description: "Computed from other steps (face match, age; face uniqueness with liveness)." }),
      }),
    ),
    location: z.object({ expected_point: z.boolean().meta({ description: "Whether the session has an expected point to compare with." }) }),
    redirect_url: z.string().nullable(),
    return_url: z.string().nullable().meta({ description: "Once the session is over: `redirect_url` with `status` and `session_id` hints; null while open or without one." }),
    stopped_by: z
      .object({
        type: z.enum(FEATURES).meta({ description: "The check (id_verification or age)." }),
        code: z.string().meta({ description: "Why it failed, e.g. `under_minimum_age`, `document_expired`." }),
      })
      .nullable()
      .meta({ description: "For a DECLINED session: the check whose failure decided it before the rest of the flow ran; null otherwise." }),
    expires_at: timestamp(),
  })
  .meta({ id: "FlowState" });

// ---------------------------------------------------------------- credential discovery

const StateParams = z.object({
  state: z.string().meta({ description: "A 2-letter state code (`state_code`); case-insensitive." }),
});

const LivenessAction = z.enum(LIVENESS_ACTIONS);

export const getFlow = operation({
    method: "get",
    path: "/api/v2/flow",
    operationId: "getFlow",
    summary: "The session as the hosted page renders it",
    description: "Who asks, the steps in order with their progress and input, and where to return. No personal data. Answers for a closed session too.",
    tag: "Hosted flow",
    auth: "sessionToken",
    success: { status: 200, description: "The flow state.", schema: FlowState },
    errors: [],
  });

export const finishFlow = operation({
    method: "post",
    path: "/api/v2/flow/finish",
    operationId: "finishFlow",
    summary: "Finish the flow",
    description:
      "The person is done: checks that never ran are recorded `not_performed`, and the decision engine sets APPROVED, DECLINED or IN_REVIEW. Finishing a session that is already decided answers the same outcome again. The decision endpoint and the webhook are authoritative.",
    tag: "Hosted flow",
    auth: "sessionToken",
    answersDecidedSession: true,
    success: {
      status: 200,
      description: "The outcome.",
      schema: z.object({
        session_id: z.string(),
        status: z.enum(["APPROVED", "DECLINED", "IN_REVIEW"]),
        redirect_url: z.string().nullable().meta({ description: "The session's `redirect_url` with `status` and `session_id` hints; null without one." }),
      }),
    },
    errors: [],
  });

export const listFlowCredentialStates = operation({
    method: "get",
    path: "/api/v2/flow/credential/states",
    operationId: "listFlowCredentialStates",
    summary: "Licence states for this session",
    description: "As GET /api/v2/credential/states, narrowed to the licence types the session's workflow accepts.",
    tag: "Hosted flow",
    auth: "sessionToken",
    success: { status: 200, description: "The states, by name.", schema: z.object({ states: z.array(CredentialState) }) },
    errors: [],
  });

export const listFlowCredentialProviders = operation({
    method: "get",
    path: "/api/v2/flow/credential/states/{state}/providers",
    operationId: "listFlowCredentialProviders",
    summary: "Licence providers of a state for this session",
    description: "As GET /api/v2/credential/states/{state}/providers, narrowed to the licence types the session's workflow accepts.",
    tag: "Hosted flow",
    auth: "sessionToken",
    params: StateParams,
    success: { status: 200, description: "The providers' credentials.", schema: z.object({ providers: z.array(CredentialProvider) }) },
    errors: ["not_found"],
  });

export const submitDocument = operation({
    method: "post",
    path: "/api/v2/document",
    operationId: "submitDocument",
    summary: "Submit the identity document",
    description:
      "The document step (id_verification; then age, and face match once a selfie exists). Images under 20 MB each. A picture to retake is refused and not counted: 422 `invalid_image` (unreadable, no barcode or MRZ: `data.reason`), `no_face` or `face_rescan_required` (no clear portrait). A read document is recorded (billed once per session; a retake replaces it). A document that fails, or an age under the workflow's minimum, decides the session DECLINED immediately (`session_status`).",
    tag: "Hosted flow",
    auth: "sessionToken",
    upload: {
      files: {
        front: { description: "The side with the portrait (a passport's data page)." },
        back: { description: "The back (barcode or MRZ side); required for `id_card` and `driving_licence`.", required: false },
      },
      fields: DocumentFields,
    },
    success: {
      status: 200,
      description: "The checks recorded, and the session's status after them.",
      schema: StepChecks.extend({
        session_status: z.enum(["IN_PROGRESS", "DECLINED"]).meta({
          description:
            "`DECLINED` when this document decided the session (id_verification or age `failed`): the session is decided now, the steps left are neither run nor billed, and later steps answer 409 `session_closed` (docs/sessions.md \"Decision engine\").",
        }),
      }),
    },
    errors: ["invalid_image", ["invalid_image", 422], "no_face", "face_rescan_required", "image_too_large", "feature_failed", "insufficient_funds"],
  });

export const issueLivenessChallenge = operation({
    method: "post",
    path: "/api/v2/antispoof/challenge",
    operationId: "issueLivenessChallenge",
    summary: "Get a liveness challenge",
    description: `A random sequence of actions to perform during one burst, and a random sequence of screen colours to show while taking it (the colour challenge: the page lights the screen with \`colours[k]\` while it takes frame k, and the server checks that the light on the face follows them; docs/hosted-flow.md "Liveness: the colour challenge"). Single use, valid ${CHALLENGE_TTL_SECONDS} seconds, and only the newest is valid. Each challenge issued counts as one of the workflow's liveness attempts; none once liveness passed. The body is optional: \`{"skip_colours": true}\` for a person who cannot look at flashing colours (no colours; the liveness result then goes to review).`,
    tag: "Hosted flow",
    auth: "sessionToken",
    body: ChallengeBody,
    success: {
      status: 201,
      description: "The challenge.",
      schema: z
        .object({
          challenge_id: z.string().meta({ description: "Send it with the burst (POST /api/v2/antispoof)." }),
          actions: z.array(LivenessAction),
          instructions: z.array(z.object({ action: LivenessAction, text: z.string() })).meta({ description: "What to show the person, in order." }),
          frames: z.object({ min: z.literal(BURST_FRAMES.min), max: z.literal(BURST_FRAMES.max), recommended: z.number().int() }),
          colours: z.array(z.enum(SCREEN_COLOURS)).meta({
            description: `The colour challenge: ${BURST_FRAMES.max} screen colours (sRGB hex), one per frame in order (a burst of n frames uses the first n). Show colour k over the whole screen, at full brightness, from at least \`colour_settle_ms\` before frame k until it is taken. Empty with \`skip_colours\`.`,
          }),
          colour_settle_ms: z.literal(COLOUR_SETTLE_MS).meta({ description: "The least time each colour must be on screen before its frame is taken (the camera shows light late)." }),
          expires_at: timestamp(),
          expires_in: z.number().int().meta({ description: "Seconds." }),
          attempts_left: z.number().int().meta({ description: "Attempts left after this one." }),
        })
        .meta({ id: "LivenessChallenge" }),
    },
    errors: ["too_many_attempts", "liveness_already_passed"],
  });

export const submitLivenessBurst = operation({
    method: "post",
    path: "/api/v2/antispoof",
    operationId: "submitLivenessBurst",
    summary: "Submit the liveness burst",
    description: `${BURST_FRAMES.min} to ${BURST_FRAMES.max} frames taken while performing the challenge (the challenge is used up from the moment it is checked). Each frame must be an image and some frame must show a clear face (422). The liveness check passes only when the head movements are seen in order AND the light on the face follows the challenge's colours; light that clearly does not follow them fails \`spoof_suspected\`; too little coloured light on the face is \`review\` with \`colour_response_unclear\` (ask for a retake while attempts are left), and a challenge without colours gives \`review\` with \`colour_challenge_skipped\`. The best frame becomes the selfie: face match follows, and face uniqueness once live. Billed once per session.`,
    tag: "Hosted flow",
    auth: "sessionToken",
    upload: BURST_UPLOAD,
    success: { status: 200, description: "The checks recorded.", schema: StepChecks },
    errors: BURST_ERRORS,
  });

export const submitIdentityBurst = operation({
    method: "post",
    path: "/api/v2/antispoof/identity",
    operationId: "submitIdentityBurst",
    summary: "Prove the bound account's face with a liveness burst",
    description: `For a session bound to an account (created with \`svc_access_token\`) whose workflow has liveness and face_match: the same challenge (POST /api/v2/antispoof/challenge) and ${BURST_FRAMES.min} to ${BURST_FRAMES.max} frames as POST /api/v2/antispoof, judged the same way, and the best frame matched 1:1 against the account's enrolled face with the workflow's face-match settings (\`data.reference: "enrolled_face"\`; a document's portrait, when the session has one, must match as well). Liveness and face match are each billed once per session, like the hosted flow's. A face that does not match answers 403 \`face_not_matched\` with the recorded checks in \`data.checks\`; a borderline match is \`review\` (200; a reviewer decides). Refused before the burst is judged (the challenge stays usable): an unbound session 400 \`invalid_session\`, a workflow without liveness or face_match 400 \`invalid_request\`, an account without a valid enrolled face 409 \`face_not_enrolled\`.`,
    tag: "Hosted flow",
    auth: "sessionToken",
    upload: BURST_UPLOAD,
    success: { status: 200, description: "The checks recorded: liveness, face_match (against the enrolled face), face_uniqueness when the workflow has it.", schema: StepChecks },
    errors: [
      "invalid_session",
      "face_not_enrolled",
      "face_not_matched",
      ...BURST_ERRORS,
    ],
  });

export const submitSelfie = operation({
    method: "post",
    path: "/api/v2/face-uniqueness",
    operationId: "submitSelfie",
    summary: "Submit a selfie",
    description:
      "For a workflow with face_uniqueness and no liveness step (with liveness, the burst's best frame is the selfie). One clear face, or 422 `no_face` / `face_rescan_required`. Face match follows when the workflow has it.",
    tag: "Hosted flow",
    auth: "sessionToken",
    upload: { files: { image: { description: "The selfie (also accepted as `selfie`)." } } },
    success: { status: 200, description: "The checks recorded.", schema: StepChecks },
    errors: ["invalid_image", ["invalid_image", 422], "no_face", "face_rescan_required", "image_too_large", "face_match_unavailable", "insufficient_funds"],
  });

export const submitLocation = operation({
    method: "post",
    path: "/api/v2/location",
    operationId: "submitLocation",
    summary: "Submit the location",
    description:
      "The browser's fix, or why there is none (`error`: the check then fails with `location_unavailable`). With an expected point and radius: passed inside, failed outside. Billed once per session.",
    tag: "Hosted flow",
    auth: "sessionToken",
    body: LocationBody,
    success: {
      status: 200,
      description: "The location check.",
      schema: z.object({
        type: z.literal("location"),
        status: z.enum(["passed", "failed"]),
        data: z.object({
          lat: z.number().optional(),
          lng: z.number().optional(),
          distance_m: z.number().optional().meta({ description: "Distance from the expected point, when there is one." }),
          radius_m: z.number().nullable().optional(),
          match: z.boolean().nullable().meta({ description: "Inside the radius; null without an expected point and radius." }),
        }),
        error: z
          .object({
            code: z.string(),
            message: z.string(),
            reason: z.enum(["permission_denied", "position_unavailable", "timeout"]).optional().meta({ description: "What the browser reported." }),
          })
          .nullable(),
      }),
    },
    errors: ["insufficient_funds"],
  });

export const submitCredential = operation({
    method: "post",
    path: "/api/v2/credential",
    operationId: "submitCredential",
    summary: "Submit a professional licence",
    description:
      "A credential (`credential_code`, or `provider_code` + `license_type` + `state_code`) and its `required_fields`. The registry is asked; the licence must belong to the person whose document this session verified (400 `kyc_required` until id_verification passed). A registry that does not answer gives `review` and the try back.",
    tag: "Hosted flow",
    auth: "sessionToken",
    body: CredentialBody,
    success: {
      status: 200,
      description: "The credential check.",
      schema: z.object({
        checks: z.array(FlowCheck),
        attempts_left: z.number().int().meta({ description: "Lookups left in this session." }),
      }),
    },
    errors: ["kyc_required", "credential_already_verified", "too_many_attempts", "insufficient_funds"],
  });

export const HOSTED_FLOW_OPERATIONS = operations([
  getFlow,
  finishFlow,
  listFlowCredentialStates,
  listFlowCredentialProviders,
  submitDocument,
  issueLivenessChallenge,
  submitLivenessBurst,
  submitIdentityBurst,
  submitSelfie,
  submitLocation,
  submitCredential,
]);
