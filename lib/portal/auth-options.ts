import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { env } from "@/lib/config/env";
import { describeError, logger } from "@/lib/log/logger";
import { checkDeveloperSignIn } from "./sign-in";
import { SIGN_IN_ERRORS } from "./public-constants";
import { startDeveloperSession } from "./developer-sessions";
import { PORTAL_AUTH_BASE_PATH, PORTAL_SESSION_MAX_AGE_SECONDS, portalAuthSecret, SESSION_ID_CLAIM } from "./session-cookie";

/** Where a developer lands after signing in or out when the requested destination is missing, unparseable or on another origin. */
const DEFAULT_DESTINATION = "/dashboard";

/**
 * next-auth's `redirect` callback (callbackUrl of sign-in and sign-out, as a
 * query parameter, form field or cookie): a same-origin URL or path as
 * given, anything else (another origin, `//host`, `javascript:`, garbage)
 * the dashboard. Never throws: next-auth would answer 500.
 */
export function sameOriginDestination(url: string, baseUrl: string): string {
  try {
    const target = new URL(url, baseUrl);
    if (target.origin === new URL(baseUrl).origin) return target.href;
  } catch {
    // Not a URL: the default below.
  }
  return new URL(DEFAULT_DESTINATION, baseUrl).href;
}


/**
 * next-auth 4 for the developer portal: email and password (the Credentials
 * provider) against the `developers` table's scrypt hashes, sessions as
 * next-auth's encrypted JWT cookie (HttpOnly, SameSite=Lax, Secure on
 * HTTPS), next-auth's double-submit CSRF token on its own POSTs. Mounted at
 * /api/portal/auth (lib/portal/next-auth-route.ts), away from the OpenID
 * Connect provider's /api/auth/oidc. Its links are built from
 * PUBLIC_BASE_URL (NEXTAUTH_URL), never from request headers. Each sign-in
 * is a `developer_sessions` row whose id the JWT carries, so sign-out and a
 * password change end sessions server-side (lib/portal/developer-sessions.ts).
 */
export function portalAuthOptions(request: { clientIp: string } = { clientIp: "unknown" }): NextAuthOptions {
  process.env.NEXTAUTH_URL = `${env().PUBLIC_BASE_URL}${PORTAL_AUTH_BASE_PATH}`;
  return {
    secret: portalAuthSecret(),
    session: { strategy: "jwt", maxAge: PORTAL_SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in", signOut: "/sign-in" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          const outcome = await checkDeveloperSignIn({ email: credentials?.email, password: credentials?.password }, request.clientIp);
          if (outcome.kind === "rate_limited") throw new Error(SIGN_IN_ERRORS.rateLimited);
          if (outcome.kind === "invalid_credentials") return null;
          return { id: outcome.developer.id, email: outcome.developer.email, name: outcome.developer.name };
        },
      }),
    ],
    callbacks: {
      // At sign-in (`user` is set only then) the session's row is made and its id travels in the token,
      // kept whenever next-auth re-issues it.
      async jwt({ token, user }) {
        if (user) token[SESSION_ID_CLAIM] = (await startDeveloperSession(user.id)).id;
        return token;
      },
      // Only same-origin destinations after sign-in and sign-out.
      async redirect({ url, baseUrl }) {
        return sameOriginDestination(url, baseUrl);
      },
    },
    // next-auth's own diagnostics go to the server log (never to the browser); its debug output stays off.
    logger: {
      error: (code, metadata) => logger.error("next-auth error", { code, ...(metadata instanceof Error ? describeError(metadata) : {}) }),
      warn: (code) => logger.warn("next-auth warning", { code }),
      debug: () => {},
    },
  };
}
