import { z } from "zod";
import { UUID_PATTERN } from "@/lib/http/validation";
import { personLocaleFor } from "@/lib/i18n/choose-person-locale";
import { PERSON_LOCALES } from "@/lib/i18n/locales";
import { SESSION_TTL } from "@/lib/workflows/settings";
import { SESSION_STATUSES } from "./statuses";


const HttpUrl = z
  .string()
  .trim()
  .max(2048, "URL must be at most 2048 characters")
  .pipe(z.url({ protocol: /^https?$/, message: "Must be an absolute http(s) URL" }));

const MAX_METADATA_BYTES = 16 * 1024;
const MAX_METADATA_KEYS = 50;

const Metadata = z
  .record(z.string().max(100, "Metadata keys are at most 100 characters"), z.unknown())
  .superRefine((value, ctx) => {
    if (Object.keys(value).length > MAX_METADATA_KEYS) {
      ctx.addIssue({ code: "custom", message: `At most ${MAX_METADATA_KEYS} keys` });
    }
    if (Buffer.byteLength(JSON.stringify(value)) > MAX_METADATA_BYTES) {
      ctx.addIssue({ code: "custom", message: `At most ${MAX_METADATA_BYTES / 1024} KB of JSON` });
    }
    // Location expectation (spec 2.2): expected_lat + expected_lng together, radius_m optional.
    const { expected_lat: lat, expected_lng: lng, radius_m: radius } = value as Record<string, unknown>;
    if ((lat === undefined) !== (lng === undefined)) {
      ctx.addIssue({ code: "custom", path: [lat === undefined ? "expected_lat" : "expected_lng"], message: "expected_lat and expected_lng go together" });
    }
    if (lat !== undefined && !(typeof lat === "number" && lat >= -90 && lat <= 90)) {
      ctx.addIssue({ code: "custom", path: ["expected_lat"], message: "A latitude between -90 and 90" });
    }
    if (lng !== undefined && !(typeof lng === "number" && lng >= -180 && lng <= 180)) {
      ctx.addIssue({ code: "custom", path: ["expected_lng"], message: "A longitude between -180 and 180" });
    }
    if (radius !== undefined && !(typeof radius === "number" && radius > 0 && radius <= 20_040_000)) {
      ctx.addIssue({ code: "custom", path: ["radius_m"], message: "A radius in metres greater than 0" });
    }
    if (radius !== undefined && lat === undefined) {
      ctx.addIssue({ code: "custom", path: ["radius_m"], message: "radius_m needs expected_lat and expected_lng" });
    }
  });

/**
 * The language of the hosted pages (an extension of spec 4.1): a BCP 47
 * tag, stored as the supported language that serves it (`fr-CA` -> `fr`).
 */
const Language = z
  .string()
  .max(35, "language is a BCP 47 tag such as fr or pt-BR")
  .transform((tag, ctx) => {
    const locale = personLocaleFor(tag);
    if (!locale) {
      ctx.addIssue({ code: "custom", message: `language must be a BCP 47 tag of a supported language: ${PERSON_LOCALES.join(", ")}` });
      return z.NEVER;
    }
    return locale;
  });

/** POST /api/v2/session (spec 2.2). Unknown fields are rejected. */
export const CreateSessionBody = z.strictObject({
  workflow_id: z.string().regex(UUID_PATTERN, "workflow_id must be a UUID"),
  redirect_url: HttpUrl.optional(),
  callback: z.string().trim().max(2048).optional(),
  vendor_data: z.string().max(1000, "vendor_data is at most 1000 characters").optional(),
  ttl_seconds: z
    .number()
    .int()
    .min(SESSION_TTL.min, `ttl_seconds must be ${SESSION_TTL.min} to ${SESSION_TTL.max}`)
    .max(SESSION_TTL.max, `ttl_seconds must be ${SESSION_TTL.min} to ${SESSION_TTL.max}`)
    .optional(),
  metadata: Metadata.optional(),
  language: Language.optional().meta({
    description: `The language of the hosted pages, a BCP 47 tag (\`fr\`, \`pt-BR\`; \`fr-CA\` is served as \`fr\`). Without it: the person's browser languages, then English. One of: ${PERSON_LOCALES.join(", ")}.`,
  }),
  svc_access_token: z.string().min(1).max(4096).optional(),
});
export type CreateSessionInput = z.infer<typeof CreateSessionBody>;

/** GET /api/v2/session query (spec 4.1): equality filters, limit default 50, no maximum. */
export const ListSessionsQuery = z.object({
  status: z.enum(SESSION_STATUSES, { message: `One of ${SESSION_STATUSES.join(", ")}` }).optional(),
  vendor_data: z.string().optional(),
  limit: z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").default(50),
});

/** PATCH /api/v2/session/{id}/status (spec 4.1). */
export const ReviewBody = z.strictObject({
  status: z.enum(["APPROVED", "DECLINED"], { message: "status must be APPROVED or DECLINED" }),
});

/** The checks a reviewer may settle in review (lib/sessions/review-check.ts): the three spec 3.1's manual approval needs. */
export const CHECKS_A_REVIEWER_SETTLES = ["id_verification", "liveness", "face_match"] as const;
export type ReviewerSettledCheck = (typeof CHECKS_A_REVIEWER_SETTLES)[number];

/**
 * POST /api/v2/session/{id}/checks/{type}/review (and the portal's twin):
 * a reviewer settles a check in `review`, with a short reason.
 */
export const CheckReviewBody = z.strictObject({
  status: z.enum(["passed", "failed"], { message: "status must be passed or failed" }),
  reason: z
    .string({ message: "reason is required" })
    .trim()
    .min(3, "reason must be at least 3 characters")
    .max(500, "reason must be at most 500 characters"),
});
export type CheckReviewInput = z.infer<typeof CheckReviewBody>;

const blankIsAny = (value: unknown) => (value === "" ? undefined : value);
const CursorParam = z.string().max(500, "Invalid cursor").optional();

/**
 * The portal's sessions list and its filter form (a GET form, so the URL is
 * shareable): the API's filters (ListSessionsQuery), a blank field meaning
 * "any", and the keyset cursor of the next page.
 */
export const SessionsPageQuery = z.object({
  status: z.preprocess(blankIsAny, ListSessionsQuery.shape.status),
  vendor_data: z.preprocess(blankIsAny, z.string().max(1000, "vendor_data is at most 1000 characters").optional()),
  cursor: CursorParam,
});
export type SessionsPageFilter = z.infer<typeof SessionsPageQuery>;

/** The review queue's pages. */
export const ReviewQueueQuery = z.object({ cursor: CursorParam });
