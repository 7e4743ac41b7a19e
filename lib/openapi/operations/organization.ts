import { z } from "zod";
import { AddMembersBody } from "@/lib/org/add-members";
import { MEMBER_ROLES, MEMBER_STATUSES } from "@/lib/org/member-vocabulary";
import { InviteBody } from "@/lib/org/invitations";
import { BindBody, RemoveQuery, ResolveBody } from "@/lib/org/member-lifecycle";
import { RecoveryBody } from "@/lib/org/recovery/start-recovery";
import { operation, operations } from "@/lib/http/operation";

/**
 * The organization API (spec 2.7, 2.8, 2.11, 3.2, 4.6): client credentials
 * (`X-Client-Id` + `X-Client-Secret`). Request schemas are the routes' own;
 * the response schemas follow lib/org/list-members.ts (presentMember),
 * lib/org/add-members.ts, lib/org/member-lifecycle.ts,
 * lib/org/invitations.ts, lib/org/recovery/start-recovery.ts and
 * lib/org/billing/read-billing.ts.
 */

const timestamp = (description?: string) => z.iso.datetime().meta(description ? { description } : {});

const MemberStatus = z.enum(MEMBER_STATUSES).meta({
  id: "MemberStatus",
  description: "`invited` and `link_sent` (not yet activated), `active` (a billable seat), `deactivated` (kept, free, sign-ins revoked). Spec 3.2.",
});

const Member = z
  .object({
    id: z.number().int(),
    member_id: z.string().meta({ description: "Stable public id: `vmem_` + 24 hex characters; equals the `svc_org_member_id` login claim." }),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    role: z.enum(MEMBER_ROLES),
    status: MemberStatus,
    svc_id: z.string().nullable().meta({ description: "The bound account; null until the member connects their account by face (or is bound)." }),
    active: z.boolean().meta({ description: "True iff `status` is `active`." }),
    created_at: timestamp(),
  })
  .meta({ id: "Member", description: "A roster entry (spec 2.7)." });

const MemberParams = z.object({
  member_id: z.string().meta({ description: "The member's `member_id`, or its email, or its `svc_id`." }),
});

const CreatedMember = Member.extend({
  activation_link: z.string().nullable().meta({
    description: "The face-activation link for a face invite (to deliver yourself); null otherwise (email links are emailed, never returned).",
  }),
  invite_method: z.enum(["face", "email", "none"]),
  reactivated: z.literal(true).optional().meta({ description: "Present when a deactivated member with this email was brought back." }),
}).meta({ id: "CreatedMember" });

const MemberReply = z.object({ member: Member });

const Money = (description: string) => z.number().meta({ description });

const Billing = z
  .object({
    subscription: z
      .object({
        plan: z.string(),
        status: z.enum(["trialing", "active", "past_due"]).meta({ description: "`past_due`: a seat invoice is open for more than 7 days; new seats are refused (402)." }),
        price_per_seat: Money("USD per active member per month."),
        in_trial: z.boolean(),
        trial_ends_at: timestamp(),
        current_period_end: timestamp(),
      })
      .nullable()
      .meta({ description: "Null until the roster is first written (the first member added or bound)." }),
    seats: z.number().int().meta({ description: "Active members (every role)." }),
    estimated_next_charge: Money("seats × price_per_seat."),
    currency: z.literal("USD"),
    balance: Money("The organization's wallet balance."),
    invoices: z
      .array(
        z.object({
          period: z.string().meta({ description: "ISO 8601 interval `<start>/<end>`." }),
          seats: z.number().int(),
          amount: z.number(),
          created_at: timestamp(),
          status: z.enum(["open", "paid"]),
          period_start: timestamp(),
          period_end: timestamp(),
          paid_at: timestamp().nullable(),
        }),
      )
      .meta({ description: "Seat invoices, newest first." }),
  })
  .meta({ id: "OrganizationBilling", description: "Spec 2.8." });

const RecoveryAnswer = z
  .object({
    eligible: z.boolean().meta({ description: "False: nothing was started (show a generic message; the reason is never given)." }),
    recoveryUrl: z.string().nullable().meta({ description: "The hosted recovery page, for your server only; also emailed to the member. Null when not eligible." }),
    emailed: z.boolean(),
    sessionId: z.string().nullable(),
    status: z.literal("NOT_STARTED").nullable(),
    expiresAt: timestamp().nullable(),
  })
  .meta({ id: "RecoverySession", description: "Spec 2.11. Every answer has the same keys; an ineligible one has nulls." });

export const listMembers = operation({
    method: "get",
    path: "/api/sdk/members",
    operationId: "listMembers",
    summary: "List the roster",
    description: "The organization's members of role `member`, oldest first.",
    tag: "Organization",
    auth: "client",
    success: {
      status: 200,
      description: "The roster and the organization.",
      schema: z.object({ members: z.array(Member), organization: z.object({ id: z.string(), name: z.string() }) }),
    },
    errors: [],
  });

export const addMembers = operation({
    method: "post",
    path: "/api/sdk/members",
    operationId: "addMembers",
    summary: "Add members",
    description:
      "Adds 1 to 500 people in one transaction. An email already on the roster (or repeated in the request) is skipped as `duplicate`; a deactivated one is reactivated. New members not active get an invitation (`invite`: `auto` emails when mail is available and `notify` is true, else returns a face-activation link). 402 `insufficient_funds` while the organization is past due.",
    tag: "Organization",
    auth: "client",
    body: AddMembersBody,
    success: {
      status: 201,
      description: "What was added and skipped.",
      schema: z.object({
        created: z.array(CreatedMember),
        skipped: z.array(z.object({ email: z.string(), reason: z.literal("duplicate") })),
        notified: z.boolean().meta({ description: "True when at least one invitation email was queued." }),
      }),
    },
    errors: ["insufficient_funds"],
  });

export const resolveMember = operation({
    method: "post",
    path: "/api/sdk/members/resolve",
    operationId: "resolveMember",
    summary: "Find a member by svc_id or email",
    description: "Any role. Someone outside the organization gives `{ found: false, member: null }`.",
    tag: "Organization",
    auth: "client",
    body: ResolveBody,
    success: {
      status: 200,
      description: "The member, if any.",
      schema: z.object({ found: z.boolean(), member: Member.nullable() }),
    },
    errors: ["missing_identifier"],
  });

export const bindMember = operation({
    method: "post",
    path: "/api/sdk/members/bind",
    operationId: "bindMember",
    summary: "Bind an account to a member",
    description:
      "Idempotent upsert by email: the member becomes active and bound to the account `svcId` (camelCase or snake_case fields). The account must have signed in to, or shared proofs with, one of the organization's apps (404 `not_found` otherwise); an `svcId` bound to another member is 400 `invalid_request`.",
    tag: "Organization",
    auth: "client",
    body: BindBody,
    success: { status: 200, description: "The bound member.", schema: MemberReply },
    errors: ["not_found", "insufficient_funds"],
  });

export const removeMember = operation({
    method: "delete",
    path: "/api/sdk/members/{member_id}",
    operationId: "removeMember",
    summary: "Remove a member",
    description:
      "Without `permanent`: deactivates (as PATCH deactivate) and returns the member. With `permanent=true`: deletes the row, `{ member: null, removed: true }`. An absent member: `{ member: null, already_removed: true }`. The account is never deleted.",
    tag: "Organization",
    auth: "client",
    params: MemberParams,
    query: RemoveQuery,
    success: {
      status: 200,
      description: "The deactivated member, or the removal.",
      schema: z.union([
        MemberReply,
        z.object({ member: z.null(), removed: z.literal(true) }),
        z.object({ member: z.null(), already_removed: z.literal(true) }),
      ]),
    },
    errors: [],
  });

export const deactivateMember = operation({
    method: "patch",
    path: "/api/sdk/members/{member_id}/deactivate",
    operationId: "deactivateMember",
    summary: "Deactivate a member",
    description: "From any status; idempotent. No longer a seat; every sign-in of the account to the organization's apps is revoked; the row and the account are kept.",
    tag: "Organization",
    auth: "client",
    params: MemberParams,
    success: { status: 200, description: "The deactivated member.", schema: MemberReply },
    errors: ["not_found"],
  });

export const reactivateMember = operation({
    method: "patch",
    path: "/api/sdk/members/{member_id}/reactivate",
    operationId: "reactivateMember",
    summary: "Reactivate a member",
    description:
      "A deactivated member becomes `active` while its account exists, else `invited` (unbound: it must activate by face again). Any other status is left as it is. 402 `insufficient_funds` when it would become a seat while the organization is past due.",
    tag: "Organization",
    auth: "client",
    params: MemberParams,
    success: { status: 200, description: "The member.", schema: MemberReply },
    errors: ["not_found", "insufficient_funds"],
  });

export const resendInvite = operation({
    method: "post",
    path: "/api/sdk/members/{member_id}/invite",
    operationId: "resendInvite",
    summary: "Send a new activation link",
    description:
      "For a member neither active nor deactivated: a new face-activation link that supersedes the old one, returned and, with `notify` (default true) and mail configured, emailed. Body optional. 10 requests per minute per app.",
    tag: "Organization",
    auth: "client",
    params: MemberParams,
    body: InviteBody,
    success: {
      status: 200,
      description: "The member (now `link_sent`) and its link.",
      schema: z.object({
        member: Member,
        activation_link: z.string().nullable(),
        notified: z.boolean().meta({ description: "Whether the link was also emailed." }),
      }),
    },
    errors: ["not_found", "already_active", "deactivated"],
  });

export const startRecovery = operation({
    method: "post",
    path: "/api/sdk/recovery/session",
    operationId: "startRecovery",
    summary: "Start an account recovery",
    description:
      "A locked-out member proves their face again (`variant` `with_id`, the default: a new document + liveness + face match against the enrolled face; `without_id`: liveness + face match). Eligible only for an active member bound to an account with an enrolled face; the outcome goes to the app's webhook (which must exist: 400 otherwise). The link is always emailed to the member; `deliverEmail` is ignored. The wallet is checked before eligibility (402). 60 requests per minute per app, 5 per hour per svcId.",
    tag: "Organization",
    auth: "client",
    body: RecoveryBody,
    success: { status: 200, description: "Eligible or not; same keys either way.", schema: RecoveryAnswer },
    errors: ["insufficient_funds"],
  });

export const readBilling = operation({
    method: "get",
    path: "/api/sdk/billing",
    operationId: "readBilling",
    summary: "Seat subscription and invoices",
    description: "Only active members are seats; invited, link_sent and deactivated members are free.",
    tag: "Organization",
    auth: "client",
    success: { status: 200, description: "The billing object.", schema: Billing },
    errors: [],
  });

export const ORGANIZATION_OPERATIONS = operations([
  listMembers,
  addMembers,
  resolveMember,
  bindMember,
  removeMember,
  deactivateMember,
  reactivateMember,
  resendInvite,
  startRecovery,
  readBilling,
]);
