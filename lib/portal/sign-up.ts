import { env } from "@/lib/config/env";
import { ABUSE_LIMITS } from "@/lib/http/abuse-limits";
import { consumeRateLimit } from "@/lib/http/rate-limit";
import { parseOrThrow } from "@/lib/http/validation";
import { createDeveloper } from "@/lib/tenancy/create-developer";
import { mailEmailVerification } from "./email-verification";
import { SignUpBody } from "./schemas";

/**
 * Portal sign-up: the same domain function as the CLI's `developer:create`
 * (a developer, an organization and its wallet), but with an unverified
 * email and an empty wallet: the one-time welcome credit comes when the
 * mailed link is followed (lib/portal/email-verification.ts). Sign-ups are
 * counted per client IP before anything is made (PORTAL_SIGN_UPS_PER_IP_PER_HOUR,
 * then 429 `rate_limited`). The page then signs in through next-auth with
 * the same email and password. A taken email is 409 `already_exists`.
 */
export async function signUpDeveloper(input: unknown, clientIp: string) {
  const body = parseOrThrow(SignUpBody, input, "body");
  await consumeRateLimit("portal-sign-up", { ip: clientIp }, env().PORTAL_SIGN_UPS_PER_IP_PER_HOUR, ABUSE_LIMITS.portalSignUp.windowSeconds);
  const created = await createDeveloper({
    email: body.email,
    password: body.password,
    name: body.name || undefined,
    organizationName: body.organization_name || undefined,
    emailVerified: false,
  });
  const delivery = await mailEmailVerification({ id: created.developerId, email: created.email });
  return {
    developer_id: created.developerId,
    organization_id: created.organizationId,
    email: created.email,
    email_verified: false,
    email_verification: delivery,
  };
}
