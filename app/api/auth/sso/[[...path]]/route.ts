import { legacySsoRoute } from "@/lib/oidc/routes";

/** Every method of /api/auth/sso and below: 410 endpoint_removed (the legacy single sign-on). */
export { legacySsoRoute as GET, legacySsoRoute as POST, legacySsoRoute as PUT, legacySsoRoute as PATCH, legacySsoRoute as DELETE, legacySsoRoute as OPTIONS };
