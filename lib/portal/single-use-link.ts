import { now } from "@/lib/clock";
import { env } from "@/lib/config/env";
import { hashSecret, randomToken } from "@/lib/crypto/secrets";
import { ApiError } from "@/lib/http/api-error";
import type { ErrorCode } from "@/lib/http/error-catalogue";

/**
 * The single-use links the portal mails (password reset, email
 * verification): a random token of which only the SHA-256 is stored, with an
 * expiry, in a table of the developer's links of that kind (the Prisma
 * delegate, in or out of a transaction).
 */
export type LinkTable = {
  create(args: { data: { developerId: string; tokenHash: string; expiresAt: Date } }): PromiseLike<unknown>;
  findUnique(args: { where: { tokenHash: string } }): PromiseLike<{ id: string; developerId: string } | null>;
  updateMany(args: {
    where: { id?: string; developerId?: string; usedAt: null; expiresAt?: { gt: Date } };
    data: { usedAt: Date };
  }): PromiseLike<{ count: number }>;
};

/** A new link's token for the developer, valid `ttlMs`. */
export async function issueLinkToken(table: LinkTable, developerId: string, prefix: string, ttlMs: number): Promise<string> {
  const token = randomToken(prefix, 32);
  await table.create({ data: { developerId, tokenHash: hashSecret(token), expiresAt: new Date(now().getTime() + ttlMs) } });
  return token;
}

/**
 * Uses a link up (call inside the transaction of what it does): its
 * developer, and every other open link of theirs in the table is closed with
 * it. An unknown, expired or used token: 400 `invalid`.
 */
export async function useLinkToken(table: LinkTable, token: string, invalid: ErrorCode): Promise<string> {
  const at = now();
  const link = await table.findUnique({ where: { tokenHash: hashSecret(token) } });
  if (!link) throw new ApiError(invalid);
  const used = await table.updateMany({ where: { id: link.id, usedAt: null, expiresAt: { gt: at } }, data: { usedAt: at } });
  if (used.count !== 1) throw new ApiError(invalid);
  await table.updateMany({ where: { developerId: link.developerId, usedAt: null }, data: { usedAt: at } });
  return link.developerId;
}

/** The link a mail carries: the token rides in the fragment, so it never reaches a server log or a Referer. */
export function portalLink(pagePath: string, token: string): string {
  return `${env().PUBLIC_BASE_URL}${pagePath}#token=${encodeURIComponent(token)}`;
}
