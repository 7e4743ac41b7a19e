import { beforeAll, describe, expect, it } from "vitest";

/**
 * The OIDC request schemas (lib/oidc/schemas.ts) and the OAuth errors their
 * issues become, in the order OAuth asks for. No server, no database: the
 * checks that run before any database read are called directly.
 */
beforeAll(() => {
  process.env.ENCRYPTION_KEY ??= "11".repeat(32);
  process.env.PUBLIC_BASE_URL ??= "https://id.example.com";
});

const tokenPost = (body: string, type = "application/x-www-form-urlencoded") =>
  new Request("http://localhost/api/auth/oidc/token", { method: "POST", headers: { "content-type": type }, body });

describe("token request", () => {
  const parse = async (body: Record<string, string>, json = false) => {
    const { readParams } = await import("@/lib/oidc/http");
    const { paramsObject, TokenRequest } = await import("@/lib/oidc/schemas");
    const req = json ? tokenPost(JSON.stringify(body), "application/json") : tokenPost(new URLSearchParams(body).toString());
    const input = paramsObject(await readParams(req, "body"));
    return { input, result: TokenRequest.safeParse(input) };
  };
  const refusal = async (body: Record<string, string>) => {
    const { grantTypeRefused, tokenRequestError } = await import("@/lib/oidc/schemas");
    const { input, result } = await parse(body);
    expect(result.success).toBe(false);
    const error = tokenRequestError(result.error!, input);
    return { code: error.code, message: error.message, beforeClientAuth: grantTypeRefused(result.error!) };
  };

  it("accepts both grants, from a form or a JSON body, and ignores unknown parameters", async () => {
    const code = { grant_type: "authorization_code", code: "ac_1", redirect_uri: "https://rp.example/cb", code_verifier: "v".repeat(43), client_id: "cli_1", client_secret: "cs_1" };
    for (const json of [false, true]) {
      const { result } = await parse({ ...code, resource: "x" }, json);
      expect(result.success && result.data).toEqual(code);
    }
    const { result } = await parse({ grant_type: "refresh_token", refresh_token: "rt_a+b", scope: "openid profile" });
    expect(result.success && result.data).toEqual({ grant_type: "refresh_token", refresh_token: "rt_a+b", scope: "openid profile" });
    // An empty value counts as absent (readParams drops it).
    expect((await parse({ grant_type: "refresh_token", refresh_token: "rt_x", scope: "" })).result.data).toEqual({ grant_type: "refresh_token", refresh_token: "rt_x" });
  });

  it("a missing or unsupported grant_type is refused before the client authenticates", async () => {
    expect(await refusal({ client_id: "cli_1", client_secret: "cs_1" })).toEqual({ code: "invalid_request", message: "grant_type is required", beforeClientAuth: true });
    for (const grant of ["password", "client_credentials", "constructor", "__proto__"]) {
      expect(await refusal({ grant_type: grant, code: "ac_1" })).toEqual({
        code: "unsupported_grant_type",
        message: `grant_type must be authorization_code or refresh_token, not ${grant}`,
        beforeClientAuth: true,
      });
    }
  });

  it("a missing parameter of the grant is invalid_request, an empty refresh scope invalid_scope, after the client authenticates", async () => {
    expect(await refusal({ grant_type: "authorization_code", redirect_uri: "https://rp.example/cb" })).toEqual({ code: "invalid_request", message: "code is required", beforeClientAuth: false });
    expect(await refusal({ grant_type: "authorization_code", code: "ac_1" })).toEqual({
      code: "invalid_request",
      message: "redirect_uri is required (the one sent to authorize)",
      beforeClientAuth: false,
    });
    expect(await refusal({ grant_type: "refresh_token" })).toEqual({ code: "invalid_request", message: "refresh_token is required", beforeClientAuth: false });
    expect(await refusal({ grant_type: "refresh_token", refresh_token: "rt_x", scope: "   " })).toEqual({ code: "invalid_scope", message: "scope is empty", beforeClientAuth: false });
    // The missing token is answered first.
    expect((await refusal({ grant_type: "refresh_token", scope: "   " })).message).toBe("refresh_token is required");
  });

  it("the endpoint answers a grant_type error without reading a client (no database here)", async () => {
    const { handleTokenRequest } = await import("@/lib/oidc/token-endpoint");
    await expect(handleTokenRequest(tokenPost("client_id=cli_1&client_secret=wrong"))).rejects.toMatchObject({ code: "invalid_request", status: 400 });
    await expect(handleTokenRequest(tokenPost(JSON.stringify({ grant_type: "password" }), "application/json"))).rejects.toMatchObject({
      code: "unsupported_grant_type",
      status: 400,
    });
  });
});

describe("authorization request", () => {
  const app = { isActive: true, scopes: ["openid", "profile", "verifications"] };
  const valid = { client_id: "cli_1", redirect_uri: "https://rp.example/cb", response_type: "code", scope: "openid profile", state: "st-1" };
  const check = async (change: Record<string, string | undefined>, forApp = app) => {
    const { checkAuthorizationRequest } = await import("@/lib/oidc/authorize");
    const params = new Map(Object.entries({ ...valid, ...change }).filter((e): e is [string, string] => e[1] !== undefined));
    return checkAuthorizationRequest(params, forApp);
  };
  const refused = (error: string, description: string) => ({ ok: false, error, description });

  it("accepts a valid request and returns its parameters", async () => {
    const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    const result = await check({ code_challenge: challenge, code_challenge_method: "S256", nonce: "n", prompt: "login", max_age: "300", login_hint: "a@b.example", response_mode: "query", extra: "ignored" });
    expect(result).toEqual({
      ok: true,
      scopes: ["openid", "profile"],
      request: {
        ...valid,
        code_challenge: challenge,
        code_challenge_method: "S256",
        nonce: "n",
        prompt: "login",
        max_age: "300",
        login_hint: "a@b.example",
        response_mode: "query",
      },
    });
  });

  it.each([
    ["response_type missing", { response_type: undefined }, refused("invalid_request", "response_type is required")],
    ["response_type token", { response_type: "token" }, refused("unsupported_response_type", "response_type must be code")],
    ["response_mode fragment", { response_mode: "fragment" }, refused("invalid_request", "response_mode must be query")],
    ["scope missing", { scope: undefined }, refused("invalid_scope", "scope must include openid")],
    ["scope without openid", { scope: "profile" }, refused("invalid_scope", "scope must include openid")],
    ["an unknown scope", { scope: "openid email phone" }, refused("invalid_scope", "Unknown scope: email phone")],
    ["a scope not enabled on the app", { scope: "openid zkp" }, refused("invalid_scope", "Scope not enabled for this app: zkp")],
    ["state missing", { state: undefined }, refused("invalid_request", "state is required")],
    ["plain PKCE", { code_challenge: "a".repeat(43), code_challenge_method: "plain" }, refused("invalid_request", "code_challenge_method must be S256")],
    ["a method without a challenge", { code_challenge_method: "S256" }, refused("invalid_request", "code_challenge is required with code_challenge_method")],
    ["a challenge without a method", { code_challenge: "a".repeat(43) }, refused("invalid_request", "code_challenge_method=S256 is required (plain is not supported)")],
    ["a malformed challenge", { code_challenge: "a".repeat(42), code_challenge_method: "S256" }, refused("invalid_request", "code_challenge must be a base64url S256 hash (43 characters)")],
    ["prompt=none with another value", { prompt: "none login" }, refused("invalid_request", "prompt=none cannot be combined with other values")],
    ["max_age not whole seconds", { max_age: "1.5" }, refused("invalid_request", "max_age must be a whole number of seconds")],
    ["a request object", { request: "eyJ..." }, refused("request_not_supported", "Request objects are not supported")],
    ["a request_uri", { request_uri: "urn:x" }, refused("request_uri_not_supported", "request_uri is not supported")],
    ["a parameter too long", { ui_locales: "x".repeat(2049) }, refused("invalid_request", "ui_locales is too long")],
  ])("%s", async (_, change, expected) => {
    expect(await check(change)).toEqual(expected);
  });

  it("answers errors in the provider's order, not the schema's", async () => {
    expect(await check({ response_type: "token", scope: "profile", state: undefined }, { ...app, isActive: false })).toEqual(refused("unauthorized_client", "This app is not active"));
    expect(await check({ request: "x", response_type: "token" })).toEqual(refused("request_not_supported", "Request objects are not supported"));
    expect(await check({ response_type: "token", scope: "profile" })).toMatchObject({ error: "unsupported_response_type" });
    expect(await check({ scope: "openid zkp", state: undefined })).toMatchObject({ error: "invalid_scope" });
    expect(await check({ state: undefined, code_challenge_method: "plain" })).toMatchObject({ description: "state is required" });
    // The pairing of challenge and method comes before the challenge's own format.
    expect(await check({ code_challenge: "short" })).toMatchObject({ description: "code_challenge_method=S256 is required (plain is not supported)" });
    expect(await check({ code_challenge_method: "S256", max_age: "x" })).toMatchObject({ description: "code_challenge is required with code_challenge_method" });
    // prompt=none passes the checks (the sign-in session decides: lib/oidc/authorize.ts); a bad max_age beside it does not.
    expect(await check({ prompt: "none" })).toMatchObject({ ok: true });
    expect(await check({ prompt: "none", max_age: "x" })).toMatchObject({ error: "invalid_request", description: "max_age must be a whole number of seconds" });
  });

  it("a missing client_id is shown on a page before any client is read (no database here)", async () => {
    const { startAuthorization } = await import("@/lib/oidc/authorize");
    await expect(startAuthorization(new Map([["redirect_uri", "https://rp.example/cb"]]))).rejects.toMatchObject({
      code: "invalid_request",
      message: "client_id is required",
    });
  });
});

describe("logout and credential requests", () => {
  it("take their optional parameters and ignore unknown ones", async () => {
    const { CredentialRequest, LogoutQuery, parseParams } = await import("@/lib/oidc/schemas");
    expect(parseParams(LogoutQuery, new Map([["client_id", "cli_1"], ["post_logout_redirect_uri", "https://rp.example/"], ["state", "s"], ["ui_locales", "en"]]))).toEqual({
      client_id: "cli_1",
      post_logout_redirect_uri: "https://rp.example/",
      state: "s",
    });
    expect(parseParams(LogoutQuery, new Map())).toEqual({});
    expect(parseParams(CredentialRequest, new Map([["proof", "eyJ.x.y"]]))).toEqual({ proof: "eyJ.x.y" });
    expect(parseParams(CredentialRequest, new Map())).toEqual({});
  });
});

describe("the OpenAPI document", () => {
  it("describes the OIDC requests with the very schemas the endpoints validate with", async () => {
    const schemas = await import("@/lib/oidc/schemas");
    const { OIDC_OPERATIONS } = await import("@/lib/openapi/operations/oidc");
    const op = (id: string) => OIDC_OPERATIONS.find((o) => o.operationId === id)!;
    expect(op("oidcAuthorize").query).toBe(schemas.AuthorizeQuery);
    expect(op("oidcAuthorizePost").form).toBe(schemas.AuthorizeQuery);
    expect(op("oidcToken").body).toBe(schemas.TokenRequest);
    expect(op("oidcToken").form).toBe(schemas.TokenRequest);
    expect(op("oidcPredicateCredential").body).toBe(schemas.CredentialRequest);
    expect(op("oidcLogout").query).toBe(schemas.LogoutQuery);
    expect(op("oidcLogoutPost").form).toBe(schemas.LogoutQuery);
  });
});

describe("reusableSession (OIDC Core 3.1.2.1: when the browser's sign-in stands for a new one)", () => {
  const at = new Date("2026-11-25T12:00:00Z");
  const session = { id: "s", accountId: "acct_a", authTime: new Date(at.getTime() - 600_000) };
  const reuse = async (request: Partial<{ prompts: string[]; maxAge: number; hintSubject: string | null }>, s: typeof session | null = session) => {
    const { reusableSession } = await import("@/lib/oidc/authorize");
    return reusableSession(s, { prompts: [], maxAge: undefined, hintSubject: null, at, ...request });
  };

  it("reuses a live session by default, within max_age, and for the person the hint names", async () => {
    expect(await reuse({})).toBe(session);
    expect(await reuse({ prompts: ["consent"] })).toBe(session);
    expect(await reuse({ maxAge: 600 })).toBe(session); // exactly max_age old: still within it
    expect(await reuse({ hintSubject: "acct_a" })).toBe(session);
  });

  it("asks again for prompt=login or select_account, an older sign-in than max_age, another person's hint, or no session", async () => {
    expect(await reuse({ prompts: ["login"] })).toBeNull();
    expect(await reuse({ prompts: ["consent", "select_account"] })).toBeNull();
    expect(await reuse({ maxAge: 599 })).toBeNull();
    expect(await reuse({ maxAge: 0 })).toBeNull();
    expect(await reuse({ hintSubject: "acct_b" })).toBeNull();
    expect(await reuse({}, null)).toBeNull();
  });
});

describe("oauthErrorReply (RFC 6749 5.2)", () => {
  it("puts the code in a top-level error, keeps the description to RFC 6749's characters, and is not cached", async () => {
    const { oauthErrorReply } = await import("@/lib/oidc/http");
    const { ApiError } = await import("@/lib/http/api-error");
    const { renderReply } = await import("@/lib/http/core/reply");
    const rendered = renderReply(
      oauthErrorReply(new ApiError("invalid_client", { message: 'Client “x” said "no" \\ é', headers: { "WWW-Authenticate": "Basic" } })),
    );
    expect(rendered.status).toBe(401);
    expect(JSON.parse(String(rendered.body))).toEqual({ error: "invalid_client", error_description: "Client x said no  e" });
    expect(rendered.headers).toMatchObject({ "Cache-Control": "no-store", Pragma: "no-cache", "WWW-Authenticate": "Basic" });
  });
});
