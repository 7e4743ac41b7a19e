import type { App } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { constantTimeEqual, hashSecret } from "@/lib/crypto/secrets";
import { ApiError } from "./api-error";

/** Spec 5: `X-API-Key: <key>` or `Authorization: Bearer <key>`. */
export function readApiKey(req: Request): string | undefined {
  const header = req.headers.get("x-api-key")?.trim();
  if (header) return header;
  const auth = req.headers.get("authorization")?.trim();
  const match = auth?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

/** Resolves the app of a verification API key (and who used it), or 401 `invalid_api_key`. */
export async function authenticateApiKey(req: Request): Promise<{ app: App; actor: string }> {
  const key = readApiKey(req);
  if (!key) throw new ApiError("invalid_api_key", { message: "Missing API key: send X-API-Key or Authorization: Bearer" });
  const prisma = await db();
  const record = await prisma.apiKey.findUnique({ where: { keyHash: hashSecret(key) }, include: { app: true } });
  if (!record || record.revokedAt || !record.app.isActive) {
    throw new ApiError("invalid_api_key", { message: "Invalid or revoked API key" });
  }
  if (!record.lastUsedAt || Date.now() - record.lastUsedAt.getTime() > 60_000) {
    void prisma.apiKey.update({ where: { id: record.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
  }
  return { app: record.app, actor: `api_key:${record.prefix}` };
}

/** Spec 5: `X-Client-Id` + `X-Client-Secret`, scoped to the app's organization. */
export async function authenticateClient(req: Request): Promise<{ app: App; actor: string }> {
  const clientId = req.headers.get("x-client-id")?.trim();
  const secret = req.headers.get("x-client-secret")?.trim();
  if (!clientId || !secret) {
    throw new ApiError("invalid_client", { message: "Send X-Client-Id and X-Client-Secret" });
  }
  const prisma = await db();
  const app = await prisma.app.findUnique({ where: { clientId } });
  if (!app || !constantTimeEqual(app.clientSecretHash, hashSecret(secret)) || !app.isActive) {
    throw new ApiError("invalid_client", { message: "Wrong client id or secret, or inactive app" });
  }
  return { app, actor: `client:${app.clientId}` };
}
