import "server-only";
import { db } from "@/lib/db/client";
import { openBytes, sealBytes } from "./encryption";
import { oldestDerivedKey } from "./encryption-key";
import { processSlot } from "@/lib/process-slots";

/**
 * Keys that must not change when ENCRYPTION_KEY is rotated, because what
 * they make is kept by others: the per-project pseudonyms (spec 2.4,
 * lib/identity/pseudonym.ts) that relying parties store.
 *
 * Such a key is HKDF(ENCRYPTION_KEY, purpose), as it always was, captured
 * the first time it is needed and kept in `key_material`, sealed: from then
 * on it is read from there, whatever the current key, and `svc keys:rotate`
 * only re-seals it. When nothing is captured yet it is derived from the
 * oldest configured key (the last of ENCRYPTION_KEY_PREVIOUS, else
 * ENCRYPTION_KEY): the key the values already handed out were made with.
 * start-services captures them at start-up, before any rotation.
 */
export const STABLE_PURPOSES = ["identity-pseudonym"] as const;
export type StablePurpose = (typeof STABLE_PURPOSES)[number];

const stableSecretsSlot = processSlot<Map<string, Promise<Buffer>>>("stableSecrets");

async function load(purpose: StablePurpose): Promise<Buffer> {
  const prisma = await db();
  const stored = await prisma.keyMaterial.findUnique({ where: { purpose } });
  if (stored) return openBytes(stored.sealed);
  await prisma.keyMaterial.createMany({ data: [{ purpose, sealed: sealBytes(oldestDerivedKey(purpose)) }], skipDuplicates: true });
  // Another process may have captured it first: its value is the one kept.
  const kept = await prisma.keyMaterial.findUniqueOrThrow({ where: { purpose } });
  return openBytes(kept.sealed);
}

/** The purpose's stable key (cached for the process: it never changes). */
export function stableSecret(purpose: StablePurpose): Promise<Buffer> {
  const cache = (stableSecretsSlot.value ??= new Map());
  let secret = cache.get(purpose);
  if (!secret) {
    secret = load(purpose).catch((err) => {
      cache.delete(purpose);
      throw err;
    });
    cache.set(purpose, secret);
  }
  return secret;
}

/** Captures every stable key that is not yet (start-up, and `svc keys:rotate` before it re-seals). */
export async function captureStableSecrets(): Promise<void> {
  for (const purpose of STABLE_PURPOSES) await stableSecret(purpose);
}
