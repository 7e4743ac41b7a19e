import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { splitScope, SUPPORTED_SCOPES } from "./config";

/**
 * The request parameters of the provider's endpoints, as zod schemas: the
 * endpoints validate with them and the OpenAPI document
 * (lib/openapi/operations/oidc.ts) is generated from them.
 *
 * They apply to the flat parameter object `readParams` (./http.ts) makes of
 * the query string or of a JSON or form body: every value is a non-empty
 * string there (an empty value counts as absent, a value given twice or not
 * a string is already refused), so a plain `z.string()` fails only when the
 * parameter is missing, and each field's message is the `error_description`
 * the endpoint answers. Unknown parameters are ignored (RFC 6749 3.1).
 * OAuth fixes the order errors are answered in (on authorize: the client,
 * then the redirect URI, then the rest; on token: grant_type, then client
 * authentication, then the grant's parameters), which is not zod's: an
 * endpoint parses a field on its own where it must be answered first, and
 * reads the issues of a whole parse in its own order (`issuesByParam`,
 * `tokenRequestError`). The schemas are built once, here.
 */

// ------------------------------------------------------------ authorize

/** A PKCE S256 challenge: the base64url SHA-256 of the verifier (RFC 7636 4.2). */
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const AuthorizeQuery = z.object({
  client_id: z.string({ error: "client_id is required" }).meta({ description: "The app's client id." }),
  redirect_uri: z
    .string({ error: "redirect_uri is required" })
    .meta({ description: "Must exactly match a redirect URI registered for the app (scheme, host, port, path, query)." }),
  response_type: z
    .literal("code", { error: (issue) => (issue.input === undefined ? "response_type is required" : "response_type must be code") })
    .meta({ description: "Must be `code`." }),
  scope: z
    .string({ error: "scope must include openid" })
    .superRefine((value, ctx) => {
      const scopes = splitScope(value);
      if (!scopes.includes("openid")) {
        ctx.addIssue({ code: "custom", message: "scope must include openid" });
        return;
      }
      const unknown = scopes.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s));
      if (unknown.length) ctx.addIssue({ code: "custom", message: `Unknown scope: ${unknown.join(" ")}` });
    })
    .meta({
      description: "Space-separated; must include `openid`; each scope (`openid`, `profile`, `verifications`, `zkp`, `doctor_license`) must be enabled on the app.",
    }),
  state: z.string({ error: "state is required" }).meta({ description: "Echoed unchanged on the callback." }),
  nonce: z.string().optional().meta({ description: "Recommended; bound into the ID token." }),
  code_challenge: z
    .string()
    .regex(CODE_CHALLENGE, "code_challenge must be a base64url S256 hash (43 characters)")
    .optional()
    .meta({ description: "PKCE S256 challenge (43 base64url characters)." }),
  code_challenge_method: z
    .literal("S256", { error: "code_challenge_method must be S256" })
    .optional()
    .meta({ description: "`S256` (plain is not supported); required with `code_challenge`." }),
  response_mode: z.literal("query", { error: "response_mode must be query" }).optional(),
  prompt: z
    .string()
    .optional()
    .meta({
      description:
        "`login` (sign in again), `consent` (ask again), `select_account` (as `login`), or `none` (no page: the code when the browser's sign-in session and the app's consent allow it, else `login_required` or `consent_required`).",
    }),
  max_age: z.string().regex(/^\d+$/, "max_age must be a whole number of seconds").optional().meta({ description: "Whole seconds." }),
  login_hint: z.string().optional().meta({ description: "An email address to prefill on the sign-in page." }),
  id_token_hint: z
    .string()
    .optional()
    .meta({ description: "An ID token this provider issued to the app (an expired one is accepted): the browser's sign-in is reused only for that person." }),
});
export type AuthorizeRequest = z.infer<typeof AuthorizeQuery>;

// ------------------------------------------------------------ token

/** Client authentication in the body (client_secret_post); HTTP Basic is the other way (./client-auth.ts). */
export const ClientAuthParams = z.object({
  client_id: z.string().optional().meta({ description: "client_secret_post: the app's client id (or HTTP Basic)." }),
  client_secret: z.string().optional().meta({ description: "client_secret_post: the app's client secret. Never together with HTTP Basic." }),
});
export type ClientAuthParams = z.infer<typeof ClientAuthParams>;

export const AuthorizationCodeRequest = z.object({
  grant_type: z.literal("authorization_code"),
  ...ClientAuthParams.shape,
  code: z.string({ error: "code is required" }).meta({ description: "The code from the callback (single use, about 2 minutes)." }),
  redirect_uri: z
    .string({ error: "redirect_uri is required (the one sent to authorize)" })
    .meta({ description: "The one sent to authorize." }),
  code_verifier: z.string().optional().meta({ description: "Required when PKCE was used; refused when it was not." }),
});
export type AuthorizationCodeRequest = z.infer<typeof AuthorizationCodeRequest>;

export const RefreshTokenRequest = z.object({
  grant_type: z.literal("refresh_token"),
  ...ClientAuthParams.shape,
  refresh_token: z
    .string({ error: "refresh_token is required" })
    .meta({ description: "Rotates on every use; replaying a rotated-away token revokes every grant of the person for this client." }),
  scope: z
    .string()
    .refine((value) => splitScope(value).length > 0, "scope is empty")
    .optional()
    .meta({ description: "Narrows the new access token to part of the grant." }),
});
export type RefreshTokenRequest = z.infer<typeof RefreshTokenRequest>;

const GRANT_TYPES = ["authorization_code", "refresh_token"] as const;

export const TokenRequest = z
  .discriminatedUnion("grant_type", [AuthorizationCodeRequest, RefreshTokenRequest], {
    error: (issue) => {
      const given = (issue.input as { grant_type?: unknown } | undefined)?.grant_type;
      return given === undefined ? "grant_type is required" : `grant_type must be ${GRANT_TYPES.join(" or ")}, not ${String(given)}`;
    },
  })
  .meta({
    id: "OidcTokenRequest",
    description:
      "Sent as `application/json` (spec 4.5) or `application/x-www-form-urlencoded` (RFC 6749). A parameter given twice is refused.",
  });
export type TokenRequest = z.infer<typeof TokenRequest>;

// ------------------------------------------------------------ credential, logout

export const CredentialRequest = z
  .object({
    proof: z.string().optional().meta({
      description:
        "Key binding: a JWT of `typ` `openid4vci-proof+jwt`, signed by the holder's key (in its `jwk` header), `aud` the issuer, `iat` within 300 seconds. Its key goes in the credential's `cnf.jwk`.",
    }),
  })
  .meta({ description: "Optional; `application/json` or `application/x-www-form-urlencoded`, or no body." });

export const LogoutQuery = z.object({
  id_token_hint: z.string().optional().meta({ description: "An ID token of this provider (an expired one is accepted): names the person and the client." }),
  client_id: z.string().optional().meta({ description: "Needed with `post_logout_redirect_uri` when there is no hint." }),
  post_logout_redirect_uri: z.string().optional().meta({ description: "Must exactly match a redirect URI registered for the client." }),
  state: z.string().optional().meta({ description: "Echoed on the redirect." }),
});

// ------------------------------------------------------------ reading the issues

/** The flat parameter object the schemas above parse. */
export function paramsObject(params: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries(params);
}

/**
 * The first issue of each parameter (by its top-level name) of a parse, so
 * an endpoint can answer them in the order OAuth asks for rather than zod's.
 * Empty when the parse succeeded.
 */
export function issuesByParam(result: z.ZodSafeParseResult<unknown>): ReadonlyMap<string, z.core.$ZodIssue> {
  const issues = new Map<string, z.core.$ZodIssue>();
  if (result.success) return issues;
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? "");
    if (!issues.has(name)) issues.set(name, issue);
  }
  return issues;
}

/**
 * Parameters that have no error of their own (logout, the credential
 * request): any issue is a 400 `invalid_request` naming it.
 */
export function parseParams<S extends z.ZodType>(schema: S, params: ReadonlyMap<string, string>): z.infer<S> {
  const result = schema.safeParse(paramsObject(params));
  if (!result.success) throw new ApiError("invalid_request", { message: result.error.issues[0]?.message });
  return result.data;
}

/**
 * The token endpoint's answer to a request its schema refuses: a missing
 * grant_type is `invalid_request`, another one `unsupported_grant_type`
 * (answered before the client authenticates: `grantTypeRefused`); then a
 * missing parameter of the grant is `invalid_request`, and a refresh
 * `scope` with no scope in it `invalid_scope`.
 */
export function tokenRequestError(error: z.ZodError, input: Record<string, string>): ApiError {
  const issue = error.issues[0];
  const param = String(issue?.path[0] ?? "");
  const message = issue?.message;
  if (param === "grant_type") {
    return new ApiError(input.grant_type === undefined ? "invalid_request" : "unsupported_grant_type", { message });
  }
  return new ApiError(param === "scope" ? "invalid_scope" : "invalid_request", { message });
}

/** Whether the refusal is about grant_type, which is answered before client authentication. */
export function grantTypeRefused(error: z.ZodError): boolean {
  return error.issues[0]?.path[0] === "grant_type";
}
