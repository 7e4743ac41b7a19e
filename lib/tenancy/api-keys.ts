import { db } from "@/lib/db/client";

/** An API key as listed: its prefix (never the key), when it was made, last used and revoked. */
export type PresentedApiKey = {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Set once the key was rolled: it works until then, and is refused afterwards. */
  expires_at: string | null;
};

/** An app's API keys, newest first: unrevoked ones (a rolled key until it expires among them), then revoked. */
export async function listApiKeys(appId: string): Promise<PresentedApiKey[]> {
  const prisma = await db();
  const keys = await prisma.apiKey.findMany({ where: { appId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  keys.sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null));
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    expires_at: k.expiresAt?.toISOString() ?? null,
  }));
}
