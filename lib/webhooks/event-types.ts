/**
 * Verification event types by session status (spec 6). README "Events"
 * documents the list.
 */
export const SESSION_EVENT_TYPES: Record<string, string> = {
  APPROVED: "verification.approved",
  DECLINED: "verification.declined",
  IN_REVIEW: "verification.in_review",
  EXPIRED: "verification.expired",
  ABANDONED: "verification.abandoned",
};
