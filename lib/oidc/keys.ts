import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import { now } from "@/lib/clock";
import { decryptString, encryptString } from "@/lib/crypto/encryption";
import { db, type Tx } from "@/lib/db/client";
import { RETIRED_KEY_PUBLISH_SECONDS } from "./config";
import { processSlot } from "@/lib/process-slots";
import { lockForTransaction } from "@/lib/db/advisory-locks";

/**
 * RS256 signing keys. The private JWK is stored sealed with ENCRYPTION_KEY.
 * There is always an `active` key (it signs) and a `next` key, published in
 * the JWKS before it ever signs, so relying parties that cache the JWKS
 * already know it when it takes over. Both are made on first use. Rotation
 * (`npm run -s svc -- oidc:rotate-key`): `next` becomes `active`, a new
 * `next` is made, and the old active key is `retired`: its private part is
 * destroyed at once, its public key stays in the JWKS until every ID token
 * it signed has expired, and is kept afterwards only to check an expired
 * `id_token_hint` at logout. Token issuance learns the active kid in the
 * same query that issues the token, so every instance signs with the new key
 * from its next token on.
 */
export type SigningKey = { kid: string; key: CryptoKey };

const KEY_LOCK = 7_215_031; // pg advisory lock: one key change at a time, across instances
const oidcKeysSlot = processSlot<Map<string, CryptoKey>>("oidcKeys");
const privateKeys = () => (oidcKeysSlot.value ??= new Map());

async function newKeyRow(status: "active" | "next") {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return {
    kid,
    alg: "RS256",
    publicJwk: { ...publicJwk, kid, alg: "RS256", use: "sig" },
    privateJwkEncrypted: encryptString(JSON.stringify({ ...privateJwk, kid, alg: "RS256" })),
    status,
    createdAt: now(),
  };
}

async function lock(tx: Tx) {
  await lockForTransaction(tx, KEY_LOCK);
}

/** The active key's kid, making the active and next keys when they do not exist yet. */
export async function ensureActiveKey(): Promise<string> {
  const prisma = await db();
  const existing = await prisma.oidcSigningKey.findMany({ where: { status: { in: ["active", "next"] } } });
  const active = existing.find((k) => k.status === "active");
  if (active && existing.some((k) => k.status === "next")) return active.kid;
  const [activeRow, nextRow] = await Promise.all([newKeyRow("active"), newKeyRow("next")]);
  return prisma.$transaction(async (tx) => {
    await lock(tx);
    const rows = await tx.oidcSigningKey.findMany({ where: { status: { in: ["active", "next"] } }, orderBy: { createdAt: "desc" } });
    let kid = rows.find((k) => k.status === "active")?.kid;
    if (!kid) {
      await tx.oidcSigningKey.create({ data: activeRow });
      kid = activeRow.kid;
    }
    if (!rows.some((k) => k.status === "next")) await tx.oidcSigningKey.create({ data: nextRow });
    return kid;
  });
}

/**
 * The private key to sign with. `kid` is the active kid as the issuing
 * query saw it; without one (no key yet) the active key is made or read.
 */
export async function signingKey(kid?: string | null): Promise<SigningKey> {
  const wanted = kid ?? (await ensureActiveKey());
  const cached = privateKeys().get(wanted);
  if (cached) return { kid: wanted, key: cached };
  const prisma = await db();
  const row = await prisma.oidcSigningKey.findUnique({ where: { kid: wanted } });
  if (!row?.privateJwkEncrypted) {
    // Rotated between the query and now: sign with the current key.
    if (kid) return signingKey(null);
    throw new Error("The active OIDC signing key has no private part");
  }
  const jwk = JSON.parse(decryptString(row.privateJwkEncrypted)) as JWK;
  const key = (await importJWK(jwk, "RS256")) as CryptoKey;
  privateKeys().set(wanted, key);
  return { kid: wanted, key };
}

/** GET /api/auth/oidc/jwks.json: the active and next keys, and retired keys still within their publication time. */
/** A published signing key (RFC 7517): RSA, RS256, for signatures. */
export type PublishedJwk = { kty: "RSA"; n: string; e: string; kid: string; alg: "RS256"; use: "sig" };

/** The stored public key as published; a row that is not an RS256 signing key is refused, not served. */
function publishedKey(stored: unknown, kid: string): PublishedJwk {
  const jwk = stored as Partial<Record<keyof PublishedJwk, unknown>>;
  if (jwk.kty !== "RSA" || typeof jwk.n !== "string" || typeof jwk.e !== "string") throw new Error(`signing key ${kid} is not an RSA public key`);
  return { kty: "RSA", n: jwk.n, e: jwk.e, kid, alg: "RS256", use: "sig" };
}

export async function publishedJwks(): Promise<{ keys: PublishedJwk[] }> {
  await ensureActiveKey();
  const prisma = await db();
  const rows = await prisma.oidcSigningKey.findMany({
    where: { OR: [{ status: { in: ["active", "next"] } }, { publishUntil: { gt: now() } }] },
    orderBy: { createdAt: "desc" },
  });
  return { keys: rows.map((r) => publishedKey(r.publicJwk, r.kid)) };
}

/** Every public key ever used (logout checks an expired `id_token_hint` against them). */
export async function publicKeyByKid(kid: string): Promise<JWK | null> {
  const prisma = await db();
  const row = await prisma.oidcSigningKey.findUnique({ where: { kid } });
  return row ? (row.publicJwk as JWK) : null;
}

/** The next key becomes active, a new next key is made, the previous active key is retired (see above). */
export async function rotateSigningKey() {
  await ensureActiveKey();
  const [spareActive, newNext] = await Promise.all([newKeyRow("active"), newKeyRow("next")]);
  const prisma = await db();
  const at = now();
  const result = await prisma.$transaction(async (tx) => {
    await lock(tx);
    const previous = await tx.oidcSigningKey.findMany({ where: { status: "active" } });
    const publishUntil = new Date(at.getTime() + RETIRED_KEY_PUBLISH_SECONDS * 1000);
    await tx.oidcSigningKey.updateMany({
      where: { status: "active" },
      data: { status: "retired", retiredAt: at, publishUntil, privateJwkEncrypted: null },
    });
    const next = await tx.oidcSigningKey.findFirst({ where: { status: "next" }, orderBy: { createdAt: "asc" } });
    let active: string;
    if (next) {
      await tx.oidcSigningKey.update({ where: { kid: next.kid }, data: { status: "active" } });
      active = next.kid;
    } else {
      await tx.oidcSigningKey.create({ data: spareActive });
      active = spareActive.kid;
    }
    await tx.oidcSigningKey.create({ data: newNext });
    return { kid: active, next: newNext.kid, retired: previous.map((p) => ({ kid: p.kid, published_until: publishUntil.toISOString() })) };
  });
  for (const r of result.retired) privateKeys().delete(r.kid);
  return result;
}

/** The keys for the CLI: kid, status, dates. */
export async function listSigningKeys() {
  const prisma = await db();
  const rows = await prisma.oidcSigningKey.findMany({ orderBy: { createdAt: "desc" } });
  const at = now();
  return rows.map((r) => ({
    kid: r.kid,
    alg: r.alg,
    status: r.status,
    published: r.status === "active" || r.status === "next" || (r.publishUntil !== null && r.publishUntil > at),
    created_at: r.createdAt.toISOString(),
    retired_at: r.retiredAt?.toISOString() ?? null,
    published_until: r.publishUntil?.toISOString() ?? null,
  }));
}
