import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { now } from "@/lib/clock";
import { env } from "@/lib/config/env";
import { describeError, logger } from "@/lib/log/logger";
import { checkDeveloperSignIn } from "./sign-in";
import { SIGN_IN_ERRORS } from "./public-constants";
import { PORTAL_AUTH_BASE_PATH, PORTAL_SESSION_MAX_AGE_SECONDS, portalAuthSecret, SIGNED_IN_AT_CLAIM } from "./session-cookie";


/**
 * next-auth 4 for the developer portal: email and password (the Credentials
 * provider) against the `developers` table's scrypt hashes, sessions as
 * next-auth's encrypted JWT cookie (HttpOnly, SameSite=Lax, Secure on
 * HTTPS), next-auth's double-submit CSRF token on its own POSTs. Mounted at
 * /api/portal/auth (lib/portal/next-auth-route.ts), away from the OpenID
 * Connect provider's /api/auth/oidc. Its links are built from
 * PUBLIC_BASE_URL (NEXTAUTH_URL), never from request headers.
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
      // The sign-in time travels in the token (next-auth renews `iat` whenever it re-issues one), so a
      // password change can end the sessions signed in before it (lib/portal/access.ts).
      async jwt({ token, user }) {
        if (user) token[SIGNED_IN_AT_CLAIM] = now().getTime();
        return token;
      },
      // Only same-origin destinations after sign-in and sign-out.
      async redirect({ url, baseUrl }) {
        if (url.startsWith("/") && !url.startsWith("//")) return `${baseUrl}${url}`;
        return new URL(url).origin === baseUrl ? url : `${baseUrl}/dashboard`;
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
