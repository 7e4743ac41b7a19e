/** Spec 2.7: a member's roles. */
export const MEMBER_ROLES = ["owner", "admin", "developer", "member"] as const;

/** Spec 3.2: a member's states (`invited` and `link_sent` until activated; `active` is a seat). */
export const MEMBER_STATUSES = ["invited", "link_sent", "active", "deactivated"] as const;
