import { now } from "@/lib/clock";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { forgetCredentials } from "@/lib/http/auth";
import { parseOrThrow } from "@/lib/http/validation";
import { hashSecret } from "@/lib/crypto/secrets";
import { newApiKey, newClientCredentials } from "./credentials";
import { previousExpiry } from "./roll-window";
import { AppEnvironmentSchema, AppNameSchema } from "./schemas";

export const CreateAppInput = z.object({
  organizationId: z.string().min(1),
  name: AppNameSchema,
  environment: AppEnvironmentSchema,
});

/**
 * An app is one environment of one project (spec 5 rule 9): its own API
 * keys, OIDC client, workflows and webhooks, sharing nothing with another.
 * Returns the API key and client secret in clear once; only hashes are kept.
 */
export async function createApp(input: z.input<typeof CreateAppInput>) {
  const data = parseOrThrow(CreateAppInput, input, "app");
  const prisma = await db();
  const organization = await prisma.organization.findUnique({ where: { id: data.organizationId } });
  if (!organization) throw new ApiError("not_found", { message: "Organization not found" });
  const client = newClientCredentials(data.environment);
  const apiKey = newApiKey(data.environment);
  const app = await prisma.app.create({
    data: {
      organizationId: organization.id,
      name: data.name,
      environment: data.environment,
      clientId: client.clientId,
      clientSecretHash: client.secretHash,
      apiKeys: { create: { prefix: apiKey.prefix, keyHash: apiKey.hash } },
    },
  });
  return {
    appId: app.id,
    environment: app.environment,
    apiKey: apiKey.key,
    clientId: client.clientId,
    clientSecret: client.secret,
  };
}

/** A further API key for an app (the portal's "create key"); shown once. */
export async function issueApiKey(appId: string, name = "default") {
  const prisma = await db();
  const app = await prisma.app.findUnique({ where: { id: appId } });
  if (!app) throw new ApiError("not_found", { message: "App not found" });
  const apiKey = newApiKey(app.environment);
  const record = await prisma.apiKey.create({
    data: { appId, name, prefix: apiKey.prefix, keyHash: apiKey.hash },
  });
  return { id: record.id, prefix: record.prefix, apiKey: apiKey.key };
}

/** Revokes an API key given its value (the CLI): it stops authenticating (within CREDENTIAL_CACHE_MS elsewhere). */
export async function revokeApiKey(key: string) {
  const prisma = await db();
  const record = await prisma.apiKey.findUnique({ where: { keyHash: hashSecret(key) } });
  if (!record) throw new ApiError("not_found", { message: "API key not found" });
  return markRevoked(record);
}

/** Revokes one of an app's API keys by its id (the portal, which never sees key values again); 404 if not that app's. */
export async function revokeApiKeyOfApp(appId: string, keyId: string) {
  const prisma = await db();
  const record = await prisma.apiKey.findFirst({ where: { id: keyId, appId } });
  if (!record) throw new ApiError("not_found", { message: "API key not found" });
  return markRevoked(record);
}

async function markRevoked(record: { id: string; prefix: string; appId: string; revokedAt: Date | null }) {
  const prisma = await db();
  if (!record.revokedAt) await prisma.apiKey.update({ where: { id: record.id }, data: { revokedAt: now() } });
  forgetCredentials();
  return { id: record.id, prefix: record.prefix, appId: record.appId };
}

/**
 * Rolls one of an app's API keys (404 if not that app's): a new key with the
 * same name, shown once, works at once; the old one keeps working for
 * `expireInSeconds` (0: stops at once), then is refused exactly as a revoked
 * key. A revoked key, or one already rolled, cannot be rolled again (409
 * `key_not_rollable`): revoke it, or roll the new one.
 */
export async function rollApiKeyOfApp(appId: string, keyId: string, expireInSeconds: number) {
  const prisma = await db();
  const at = now();
  const expiresAt = previousExpiry(at, expireInSeconds) ?? at;
  return prisma.$transaction(async (tx) => {
    const app = await tx.app.findUnique({ where: { id: appId } });
    if (!app) throw new ApiError("not_found", { message: "App not found" });
    // Only a key still unrolled and unrevoked changes: two rolls at once make one new key.
    const rolled = await tx.apiKey.updateMany({ where: { id: keyId, appId, revokedAt: null, expiresAt: null }, data: { expiresAt } });
    if (rolled.count === 0) {
      const exists = await tx.apiKey.findFirst({ where: { id: keyId, appId }, select: { id: true } });
      if (!exists) throw new ApiError("not_found", { message: "API key not found" });
      throw new ApiError("key_not_rollable");
    }
    const old = await tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    const apiKey = newApiKey(app.environment);
    const record = await tx.apiKey.create({ data: { appId, name: old.name, prefix: apiKey.prefix, keyHash: apiKey.hash } });
    return {
      key: { id: record.id, name: record.name, prefix: record.prefix, apiKey: apiKey.key },
      previous: { id: old.id, prefix: old.prefix, expiresAt },
    };
  }).finally(forgetCredentials);
}

/**
 * Replaces the OIDC client secret (the new one is returned once; only its
 * hash is kept). The replaced secret keeps working at the token endpoint
 * and the organization API for `expireInSeconds` (0: stops at once); an
 * older previous secret, from a roll before, stops now.
 */
export async function rotateClientSecret(appId: string, expireInSeconds = 0) {
  const prisma = await db();
  const app = await prisma.app.findUnique({ where: { id: appId } });
  if (!app) throw new ApiError("not_found", { message: "App not found" });
  const client = newClientCredentials(app.environment);
  const previousExpiresAt = previousExpiry(now(), expireInSeconds);
  await prisma.app.update({
    where: { id: appId },
    data: {
      clientSecretHash: client.secretHash,
      previousClientSecretHash: previousExpiresAt ? app.clientSecretHash : null,
      previousClientSecretExpiresAt: previousExpiresAt,
    },
  });
  forgetCredentials();
  return { clientId: app.clientId, clientSecret: client.secret, previousSecretExpiresAt: previousExpiresAt };
}
