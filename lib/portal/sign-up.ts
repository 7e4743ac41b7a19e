import { parseOrThrow } from "@/lib/http/validation";
import { createDeveloper } from "@/lib/tenancy/create-developer";
import { SignUpBody } from "./schemas";

/**
 * Portal sign-up: the same domain function as the CLI's `developer:create`
 * (a developer, an organization, its wallet and the one-time welcome
 * credit). The page then signs in through next-auth with the same email and
 * password. A taken email is 409 `already_exists`.
 */
export async function signUpDeveloper(input: unknown) {
  const body = parseOrThrow(SignUpBody, input, "body");
  const created = await createDeveloper({
    email: body.email,
    password: body.password,
    name: body.name || undefined,
    organizationName: body.organization_name || undefined,
  });
  return { developer_id: created.developerId, organization_id: created.organizationId, email: created.email };
}
