import { endpoints, issuer, SUPPORTED_SCOPES } from "./config";

/** Claims this provider can release (ID token and userinfo), for discovery. */
export const SUPPORTED_CLAIMS = [
  "sub",
  "iss",
  "aud",
  "exp",
  "iat",
  "auth_time",
  "nonce",
  "at_hash",
  "svc_org_member_id",
  "svc_id",
  "preferred_username",
  "email",
  "email_verified",
  "name",
  "id_verified",
  // With the zkp scope (lib/identity/predicates.ts).
  "age_over_18",
  "age_over_21",
  "licence_valid",
] as const;

/** GET /.well-known/openid-configuration (and /api/.well-known/...): OpenID Connect Discovery 1.0. */
export function discoveryDocument() {
  const e = endpoints();
  return {
    issuer: issuer(),
    authorization_endpoint: e.authorization,
    token_endpoint: e.token,
    userinfo_endpoint: e.userinfo,
    jwks_uri: e.jwks,
    end_session_endpoint: e.endSession,
    scopes_supported: [...SUPPORTED_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    code_challenge_methods_supported: ["S256"],
    claims_supported: [...SUPPORTED_CLAIMS],
    claim_types_supported: ["normal"],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    authorization_response_iss_parameter_supported: true,
    prompt_values_supported: ["none", "login", "consent"],
    ui_locales_supported: ["en"],
    // Account reads beyond userinfo (spec 4.5).
    licenses_endpoint: e.licenses,
    verifications_endpoint: e.verifications,
    // The zkp predicates as an SD-JWT VC (docs/oidc.md "Proofs, not data").
    credential_endpoint: e.credential,
  };
}
