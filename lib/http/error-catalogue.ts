/**
 * The one error catalogue: every code of spec section 7 with its HTTP status
 * and default message. Nothing else in the code base picks an error status.
 * Where the spec lists several statuses for one code the first is the
 * default and `also` lists the others a caller may choose explicitly; where
 * the spec shows a dash the status was chosen (marked below).
 * Codes added by this implementation (not in the spec) are at the end.
 */
export type CatalogueEntry = { status: number; also?: readonly number[]; message: string };

export const ERROR_CATALOGUE = {
  invalid_api_key: { status: 401, message: "Bad verification API key" },
  callback_not_allowed: { status: 422, message: "callback does not exactly match an active, approved HTTPS project webhook" },
  workflow_not_found: { status: 404, message: "Workflow id not in this project" },
  not_found: { status: 404, message: "Unknown or inactive identity, unknown face id, unknown member" },
  missing_parameter: { status: 400, message: "Neither svc_id nor vendor_data given" },
  missing_identifier: { status: 400, message: "Neither svc_id nor email given (resolve)" },
  invalid_request: { status: 400, also: [401, 404, 422], message: "Required parameter missing or malformed" },
  review_not_pending: { status: 409, message: "Manual decision on a session not IN_REVIEW" },
  required_face_checks_incomplete: { status: 409, message: "Approval without passed ID verification, liveness and face match" },
  already_active: { status: 409, message: "Re-invite of an active member" },
  deactivated: { status: 409, message: "Re-invite of a deactivated member" },
  rate_limited: { status: 429, message: "Over the request rate" },
  idempotency_in_progress: { status: 409, message: "Same Idempotency-Key still being processed" },
  idempotency_key_reused: { status: 422, message: "Idempotency-Key reused with a different body" },
  invalid_grant: { status: 400, also: [401], message: "Code or refresh token expired, used, or issued to another client" },
  invalid_client: { status: 401, message: "Wrong client id or secret, or inactive app" },
  invalid_scope: { status: 400, message: "Scope not enabled for the app or openid omitted" },
  insufficient_scope: { status: 403, message: "Access token lacks a required scope" },
  invalid_token: { status: 401, also: [403], message: "Token missing or expired" },
  unsupported_grant_type: { status: 400, message: "Grant other than the supported ones" },
  unsupported_response_type: { status: 400, message: "response_type other than code" },
  invalid_redirect_uri: { status: 400, message: "Redirect URIs missing" },
  unauthorized_client: { status: 403, message: "App not active" },
  access_denied: { status: 403, message: "User declined, or app not permitted" },
  endpoint_removed: { status: 410, message: "Call to a removed legacy endpoint; use the OIDC endpoints" },
  session_expired: { status: 410, message: "Session expired" },
  session_closed: { status: 409, message: "Session already closed" },
  session_not_found: { status: 404, message: "Wrong or expired session id" }, // status not shown in the spec: chosen
  token_missing: { status: 401, message: "Session token required" },
  account_dob_unavailable: { status: 422, message: "Account has no verified date of birth" },
  account_not_found: { status: 404, message: "No account matches the token" },
  activation_failed: { status: 500, also: [503], message: "Activation failed" },
  already_exists: { status: 409, message: "E2E encryption already active for the device" },
  already_paired: { status: 409, message: "Device already paired" },
  app_default_protected: { status: 422, message: "Default app cannot be deleted" },
  back_image_not_found: { status: 404, message: "Back image missing" },
  cache_clear_failed: { status: 400, message: "Cache clear failed" },
  challenge_expired: { status: 400, message: "Liveness instruction expired" },
  challenge_required: { status: 400, message: "Challenge flow required before login" },
  client_not_found: { status: 404, message: "Client missing" },
  code_expired: { status: 410, message: "One-time code expired" },
  database_error: { status: 500, message: "Failed to store device keys" },
  decrypt_failed: { status: 500, message: "Managed payload could not be opened" },
  deletion_failed: { status: 500, message: "Account deletion failed" },
  denied: { status: 403, message: "User denied the request" },
  device_already_paired: { status: 409, message: "Device already paired" },
  device_key_unknown: { status: 410, message: "Browser device key no longer registered" },
  device_mismatch: { status: 400, message: "device_id does not match" },
  device_not_found: { status: 404, message: "Device not registered or not linked" },
  empty_face_feature: { status: 400, message: "Empty face feature" },
  endpoint_not_found: { status: 404, message: "Endpoint not found" }, // status not shown in the spec: chosen
  engine_unreachable: { status: 503, message: "Verification engine did not respond" },
  expired: { status: 410, message: "Request expired" },
  face_feature_extraction_failed: { status: 400, message: "Face feature extraction failed" },
  face_match_failed: { status: 500, message: "Face match failed" },
  face_match_unavailable: { status: 502, message: "Selfie could not be verified now" },
  face_mismatch: { status: 403, message: "Face did not match" },
  face_not_enrolled: { status: 409, message: "No face enrolled on the account" },
  face_not_matched: { status: 403, message: "Face does not match logged-in user" },
  face_not_verified: { status: 403, message: "Face not verified for the tracking id" },
  face_required: { status: 409, message: "Face check required to release identity data" },
  face_rescan_required: { status: 422, message: "Face not confidently recognized; rescan" },
  failed_to_extract_id_portrait_feature: { status: 422, message: "Portrait feature extraction failed" }, // status not shown in the spec: chosen
  feature_extraction_failed: { status: 400, message: "Feature extraction failed" },
  feature_failed: { status: 502, message: "Feature extraction failed" },
  feature_size_mismatch: { status: 400, message: "Feature size mismatch" }, // status not shown in the spec: chosen
  forbidden: { status: 403, message: "Invalid internal auth" },
  frames_required: { status: 400, message: "A 3 to 8 frame live burst is needed" },
  front_image_id_required: { status: 400, message: "front_image_id required" },
  front_image_not_found: { status: 404, message: "Front image missing" },
  identity_locked: { status: 403, message: "Verified identity; only email and phone can change" },
  image_not_found: { status: 404, message: "Image missing" },
  image_too_large: { status: 413, message: "Photo over 20 MB" },
  invalid_activation: { status: 404, message: "Activation link invalid or expired" },
  invalid_audience: { status: 401, message: "Invalid audience" }, // status not shown in the spec: chosen
  invalid_challenge: { status: 403, message: "Challenge invalid, expired, or signature failed" },
  invalid_challenge_result: { status: 403, message: "Invalid challenge result" },
  invalid_client_metadata: { status: 400, message: "client_name must be 1 to 120 characters" },
  invalid_config: { status: 500, message: "Server key not configured" },
  invalid_date: { status: 400, message: "Invalid expire_at format" },
  invalid_feature: { status: 400, message: "Invalid face vector" },
  invalid_frames: { status: 400, message: "Live verification needs at least 3 frames" },
  invalid_idp_response: { status: 502, message: "Invalid provider response" }, // status not shown in the spec: chosen
  invalid_image: { status: 400, also: [422], message: "A selfie is required" },
  invalid_recovery_phrases: { status: 403, message: "Invalid recovery phrases" },
  invalid_session: { status: 400, message: "Session has no user reference" },
  invalid_state: { status: 409, message: "Share request already decided" },
  invalid_status: { status: 400, message: "Invalid status" },
  kyc_required: { status: 400, message: "Complete ID verification before licence verification" },
  legacy_ocr_failed: { status: 422, message: "Legacy OCR failed" }, // status not shown in the spec: chosen
  license_not_found: { status: 400, also: [404], message: "Licence not found" },
  limit_reached: { status: 422, message: "Vault item limit reached" },
  liveness_unavailable: { status: 502, message: "Selfie could not be checked now" },
  logo_invalid: { status: 422, message: "Logo must be an image data URL" },
  logo_too_large: { status: 422, message: "Logo too large" },
  misconfigured: { status: 500, message: "Invalid signing key" },
  misconfigured_oidc_endpoints: { status: 500, message: "OIDC endpoints misconfigured" }, // status not shown in the spec: chosen
  missing_dob: { status: 400, message: "Date of birth required" },
  missing_document: { status: 400, message: "Selfie upload required before liveness" },
  no_existing_e2e: { status: 400, message: "No existing E2E keys" },
  no_face: { status: 422, message: "No usable face in the selfie" },
  no_images_provided: { status: 400, message: "At least one image required" },
  no_reusable_record: { status: 400, message: "No reusable verification found" },
  no_verification: { status: 404, message: "App has no verification set up yet" },
  not_linked: { status: 400, message: "Sign in before reusing identity" },
  otp_expired: { status: 410, message: "OTP expired" },
  otp_invalid: { status: 400, message: "Invalid OTP" },
  otp_not_found: { status: 404, message: "OTP unknown" },
  pairing_already_exchanged: { status: 409, message: "Tokens already issued for pairing" },
  pairing_already_fulfilled: { status: 409, message: "Pairing already fulfilled" },
  pairing_expired: { status: 410, message: "Pairing expired" },
  pairing_incomplete: { status: 400, message: "Second device public key missing" },
  pairing_not_found: { status: 404, message: "Pairing not found" },
  pairing_not_fulfilled: { status: 400, message: "Pairing not complete" },
  portrait_invalid: { status: 422, message: "Portrait invalid" }, // status not shown in the spec: chosen
  portrait_not_found: { status: 404, message: "Portrait missing" }, // status not shown in the spec: chosen
  recovery_phrases_not_set: { status: 404, message: "Recovery phrases not set" },
  registration_failed: { status: 500, message: "Registration failed" },
  requires_login: { status: 401, message: "User must authenticate first" },
  reuse_not_available: { status: 400, message: "Account no longer verified" },
  sdk_compare_failed: { status: 502, message: "Compare failed" }, // status not shown in the spec: chosen
  server_error: { status: 500, message: "Unexpected error" },
  sso_error: { status: 500, message: "Sign-in failed" },
  sso_exchange_failed: { status: 401, message: "Sign-in exchange failed" },
  sso_no_identity: { status: 422, message: "No account identity returned" },
  sso_not_configured: { status: 503, message: "Single sign-on not configured" },
  stored_reference_invalid: { status: 422, message: "Stored reference invalid" }, // status not shown in the spec: chosen
  stored_reference_invalid_type: { status: 422, message: "Stored reference type invalid" }, // status not shown in the spec: chosen
  tamper_detected: { status: 409, message: "payload_hash does not match attestation" },
  token_error: { status: 500, message: "Token could not be issued" },
  token_issuance_failed: { status: 500, message: "Token issuance failed" },
  too_many_attempts: { status: 429, message: "Too many failed face checks" },
  too_many_frames: { status: 400, message: "At most 8 frames accepted" },
  tracking_already_used: { status: 403, message: "Tracking id already used" },
  tracking_expired: { status: 403, message: "Tracking id expired" },
  tracking_not_found: { status: 404, message: "Tracking id unknown" },
  unauthenticated: { status: 401, message: "Account not found" },
  unauthorized: { status: 401, also: [403], message: "Not authorized" },
  unauthorized_domain: { status: 403, message: "Unauthorized domain" },
  unknown_band: { status: 400, message: "Unknown band" }, // status not shown in the spec: chosen
  user_deleted: { status: 410, message: "Device linked to a deleted account" },
  user_has_no_face_reference: { status: 409, message: "User has no face reference" }, // status not shown in the spec: chosen
  user_not_found: { status: 400, also: [404], message: "User not found" },
  userinfo_failed: { status: 502, message: "Userinfo failed" }, // status not shown in the spec: chosen
  valyd_account_mismatch: { status: 403, message: "Verification belongs to a different account" },
  valyd_login_required: { status: 401, message: "Sign-in required to continue verification" },
  verification_soft_locked: { status: 423, message: "Verification temporarily locked" },
  wc_error: { status: 400, message: "Upstream API error" },
  wrapped_ku_recovery_not_set: { status: 404, message: "Wrapped key recovery not set" },
  wrong_endpoint: { status: 400, message: "Endpoint expects image ids, not file uploads" },  // Added by this implementation.
  insufficient_funds: { status: 402, message: "Wallet balance exhausted: top up the wallet to run billable checks" },
  method_not_allowed: { status: 405, message: "Method not allowed on this endpoint" },
  request_too_large: { status: 413, message: "Request body too large" },
  unsupported_media_type: { status: 415, message: "Content-Type must be application/json" },
  service_unavailable: { status: 503, message: "A dependency of the service is unavailable; retry with backoff" },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, code);
}
