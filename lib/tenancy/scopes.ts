/** Spec 5 rule 3: the scopes an app may enable; `openid` is mandatory. (No imports: the portal's browser code uses it too.) */
export const KNOWN_SCOPES = ["openid", "profile", "verifications", "zkp", "doctor_license"] as const;
export type KnownScope = (typeof KNOWN_SCOPES)[number];
