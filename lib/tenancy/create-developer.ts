import { z } from "zod";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { hashPassword } from "@/lib/crypto/secrets";
import { grantWelcomeCredit } from "@/lib/billing/welcome-credit";
import { ApiError } from "@/lib/http/api-error";
import { parseOrThrow } from "@/lib/http/validation";
import { EmailSchema, PasswordSchema } from "./schemas";

export const CreateDeveloperInput = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  name: z.string().trim().max(120).optional(),
  organizationName: z.string().trim().min(1).max(120).optional(),
  /**
   * Whether the email is known to be the developer's: true for the trusted
   * callers (the operator's CLI, the development demo account), which get the
   * welcome credit at once; false for portal sign-up, whose account gets it
   * when the mailed link is followed (lib/portal/email-verification.ts).
   */
  emailVerified: z.boolean(),
});

/**
 * A developer account with its organization and wallet. For a verified email
 * the one-time welcome credit (spec 1.6, 100 USD, lib/billing/welcome-credit.ts)
 * is a ledger row in the same transaction; an unverified account starts with
 * an empty wallet. The CLI, the demo account and portal sign-up call this.
 */
export async function createDeveloper(input: z.input<typeof CreateDeveloperInput>) {
  const data = parseOrThrow(CreateDeveloperInput, input, "developer");
  const passwordHash = await hashPassword(data.password);
  const prisma = await db();
  try {
    return await prisma.$transaction(async (tx) => {
      const developer = await tx.developer.create({
        data: { email: data.email, passwordHash, name: data.name ?? null, emailVerifiedAt: data.emailVerified ? now() : null },
      });
      const organization = await tx.organization.create({
        data: { name: data.organizationName ?? `${data.name ?? data.email.split("@")[0]}'s organization` },
      });
      await tx.organizationDeveloper.create({
        data: { organizationId: organization.id, developerId: developer.id, role: "owner" },
      });
      await tx.wallet.create({ data: { organizationId: organization.id } });
      if (data.emailVerified) await grantWelcomeCredit(tx, organization.id);
      return { developerId: developer.id, organizationId: organization.id, email: developer.email };
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new ApiError("already_exists", { message: "A developer with this email already exists" });
    }
    throw err;
  }
}
