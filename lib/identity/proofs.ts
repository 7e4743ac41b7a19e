import type { Session } from "@/generated/prisma/client";
import { openJson, sealJson } from "@/lib/crypto/encryption";
import type { Tx } from "@/lib/db/client";
import type { DocumentFields } from "@/lib/documents/document-reading";
import type { FaceTemplate } from "@/lib/faces/templates";
import { createHmac } from "node:crypto";
import { normaliseLicenceNumber } from "@/lib/licence-registries/normalise";
import type { LicenceRecord } from "@/lib/licence-registries/types";
import type { HolderName } from "@/lib/licence-registries/types";
import { derivedKey, derivedKeys } from "@/lib/crypto/encryption-key";
import { loadJsonArtifact } from "@/lib/artifacts/artifacts";

/**
 * Proofs: what an account has proven (Reusable Verification, spec 1.2),
 * saved from its approved sessions and reused by later ones. Each is sealed
 * (AES-256-GCM under ENCRYPTION_KEY) in `account_proofs`; only its kind,
 * dates and source session are in the clear. docs/hosted-flow.md "Reusable identity".
 *   - document: the verified document's fields, valid until the document expires;
 *   - face: the enrolled face (template of the best liveness frame), valid until replaced;
 *   - licence: a verified professional licence, valid until it expires.
 */
export type DocumentProof = Pick<
  DocumentFields,
  "full_name" | "first_name" | "last_name" | "date_of_birth" | "document_number" | "issuing_country" | "issuing_state" | "expiry_date"
> & { document_type: string };

export type FaceProof = FaceTemplate;

export type LicenceProof = {
  license_type: string;
  license_number: string | null;
  state: string | null;
  issuing_authority: string | null;
  /** The check's status (lib/licence-registries/types.ts LicenceStatus): `active` when verified, later what a re-check found. */
  status: string | null;
  /** The registry's own words. */
  registry_status: string | null;
  expires_on: string | null;
  /** The registry's holder, matched again by the daily re-check (lib/credentials/recheck-licences.ts). */
  holder?: HolderName;
  /** How to ask the registry again (the daily re-check). */
  lookup?: LicenceRecord["lookup"];
  /** When the registry last confirmed it (ISO timestamp). */
  checked_at?: string;
};

export type ProofContent = { document: DocumentProof; face: FaceProof; licence: LicenceProof };
export type ProofKind = keyof ProofContent;

export type Proof<K extends ProofKind = ProofKind> = {
  kind: K;
  key: string;
  content: ProofContent[K];
  verifiedAt: Date;
  validUntil: Date | null;
  sourceSessionId: string | null;
};

/** Whether a check result came from the account's proofs (`data.reused`, lib/identity/reuse.ts). */
export function wasReused(data: unknown): boolean {
  return (data as { reused?: unknown } | null | undefined)?.reused === true;
}

/** The end of an ISO date's day (UTC): a document or licence is valid through its expiry date. */
export function endOfDay(isoDate: string | null | undefined): Date | null {
  if (!isoDate || !/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) return null;
  return new Date(`${isoDate}T23:59:59.999Z`);
}

/** A proof's sealed content opened. */
export function openProofContent<K extends ProofKind>(sealed: Uint8Array): ProofContent[K] {
  return openJson<ProofContent[K]>(sealed);
}

/** The holder's name as the verified document gives it: its full name, else first and last name; null when it gives none. */
export function documentProofName(document: Pick<DocumentProof, "full_name" | "first_name" | "last_name">): string | null {
  const name = document.full_name?.trim() || [document.first_name, document.last_name].filter((n) => n?.trim()).join(" ").trim();
  return name || null;
}

export function openProof<K extends ProofKind>(row: {
  kind: string;
  key: string;
  sealed: Uint8Array;
  verifiedAt: Date;
  validUntil: Date | null;
  sourceSessionId: string | null;
}): Proof<K> {
  return {
    kind: row.kind as K,
    key: row.key,
    content: openProofContent<K>(row.sealed),
    verifiedAt: row.verifiedAt,
    validUntil: row.validUntil,
    sourceSessionId: row.sourceSessionId,
  };
}

async function upsertProof(tx: Tx, accountId: string, proof: Omit<Proof, "kind"> & { kind: ProofKind }) {
  const values = {
    sealed: sealJson(proof.content),
    verifiedAt: proof.verifiedAt,
    validUntil: proof.validUntil,
    sourceSessionId: proof.sourceSessionId,
  };
  await tx.accountProof.upsert({
    where: { accountId_kind_key: { accountId, kind: proof.kind, key: proof.key } },
    create: { accountId, kind: proof.kind, key: proof.key, ...values },
    update: values,
  });
}

/** Enrols a live face on an account (face activation of an organization seat): the account's face proof. */
export async function enrollFace(tx: Tx, accountId: string, face: FaceTemplate, at: Date) {
  await upsertProof(tx, accountId, { kind: "face", key: "", content: face, verifiedAt: at, validUntil: null, sourceSessionId: null });
}

/** The licence proof a passed credential check's sealed record makes (lib/credentials/run-credential-check.ts); null without a licence. */
export function licenceFromRecord(record: LicenceRecord): LicenceProof | null {
  const l = record.licence;
  if (!l) return null;
  return {
    license_type: l.license_type,
    license_number: l.license_number,
    state: l.state,
    issuing_authority: l.issuing_authority,
    status: l.status,
    registry_status: l.registry_status,
    expires_on: l.expires_on,
    holder: l.holder,
    lookup: record.lookup,
    checked_at: record.looked_up_at,
  };
}

/**
 * One licence proof per credential and number: its key is an HMAC (key
 * derived from ENCRYPTION_KEY) of type, state and normalised number, so the
 * number is not in clear beside the account.
 */
export function licenceProofKey(licence: Pick<LicenceProof, "license_type" | "license_number" | "state">, key = derivedKey("licence-proof-key")): string {
  const name = `${licence.license_type.toLowerCase()}|${licence.state ?? ""}|${normaliseLicenceNumber(licence.license_number ?? "")}`;
  return createHmac("sha256", key).update(name).digest("base64url");
}

/** The licence's proof keys under the keys in ENCRYPTION_KEY_PREVIOUS (a proof saved before a rotation finished). */
function previousLicenceProofKeys(licence: LicenceProof): string[] {
  return derivedKeys("licence-proof-key").slice(1).map((key) => licenceProofKey(licence, key));
}

/**
 * When a session bound to an account reaches APPROVED, in that transaction
 * and before its artifacts are purged: its passed checks become the
 * account's proofs, and the session's app is recorded as an app the person
 * shared them with. A reused document is not saved again (it keeps its
 * first verification date). The enrolled face is set by the first approved
 * liveness and replaced only by a liveness frame that also passed face
 * match (against a document or the enrolled face), so whoever holds the
 * account cannot swap in another face.
 */
export async function saveSessionProofs(tx: Tx, session: Pick<Session, "id" | "appId" | "accountId">, at: Date) {
  const accountId = session.accountId;
  if (!accountId) return;
  const checks = await tx.checkResult.findMany({ where: { sessionId: session.id, status: "passed" } });
  const passed = new Map(checks.map((c) => [c.type, c]));

  const idCheck = passed.get("id_verification");
  if (idCheck && !wasReused(idCheck.data)) {
    const fields = await loadJsonArtifact<DocumentFields & { document_type: string }>(session.id, "document_fields", tx);
    if (fields) {
      const content: DocumentProof = {
        document_type: fields.document_type,
        full_name: fields.full_name,
        first_name: fields.first_name,
        last_name: fields.last_name,
        date_of_birth: fields.date_of_birth,
        document_number: fields.document_number,
        issuing_country: fields.issuing_country,
        issuing_state: fields.issuing_state,
        expiry_date: fields.expiry_date,
      };
      await upsertProof(tx, accountId, { kind: "document", key: "", content, verifiedAt: at, validUntil: endOfDay(fields.expiry_date), sourceSessionId: session.id });
    }
  }

  if (passed.has("liveness")) {
    const enrolled = await tx.accountProof.findUnique({ where: { accountId_kind_key: { accountId, kind: "face", key: "" } }, select: { id: true } });
    if (!enrolled || passed.has("face_match")) {
      const face = await loadJsonArtifact<FaceTemplate>(session.id, "selfie_template", tx);
      if (face) await upsertProof(tx, accountId, { kind: "face", key: "", content: face, verifiedAt: at, validUntil: null, sourceSessionId: session.id });
    }
  }

  const record = passed.has("credential") ? await loadJsonArtifact<LicenceRecord>(session.id, "licence_record", tx) : null;
  if (record) {
    const licence = licenceFromRecord(record);
    if (licence) {
      // The same licence proven before an ENCRYPTION_KEY rotation finished: replaced, not kept twice.
      const before = previousLicenceProofKeys(licence);
      if (before.length) await tx.accountProof.deleteMany({ where: { accountId, kind: "licence", key: { in: before } } });
      await upsertProof(tx, accountId, {
        kind: "licence",
        key: licenceProofKey(licence),
        content: licence,
        verifiedAt: at,
        validUntil: endOfDay(licence.expires_on),
        sourceSessionId: session.id,
      });
    }
  }

  await tx.accountShare.upsert({
    where: { accountId_appId: { accountId, appId: session.appId } },
    create: { accountId, appId: session.appId, firstSharedAt: at, lastSharedAt: at },
    update: { lastSharedAt: at, revokedAt: null },
  });
}
