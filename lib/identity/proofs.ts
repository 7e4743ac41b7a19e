import type { Session } from "@/generated/prisma/client";
import { openJson, sealJson } from "@/lib/crypto/encryption";
import type { Tx } from "@/lib/db/client";
import type { DocumentFields } from "@/lib/documents/document-reading";
import type { FaceTemplate } from "@/lib/faces/templates";
import { loadJsonArtifact } from "@/lib/sessions/artifacts";

/**
 * Proofs: what an account has proven (Reusable Verification, spec 1.2),
 * saved from its approved sessions and reused by later ones. Each is sealed
 * (AES-256-GCM under ENCRYPTION_KEY) in `account_proofs`; only its kind,
 * dates and source session are in the clear. README "Reusable identity".
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
  status: string | null;
  registry_status: string | null;
  expires_on: string | null;
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
    content: openJson<ProofContent[K]>(row.sealed),
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

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** The licence a passed `credential` check verified: `data.license { type, number, status, expires_at|expires_on, issuer, state }`. */
export function licenceFromCheck(data: unknown): LicenceProof | null {
  const d = (data && typeof data === "object" ? data : {}) as Record<string, unknown>;
  const lic = (d.license && typeof d.license === "object" ? d.license : {}) as Record<string, unknown>;
  const type = text(lic.type ?? lic.license_type ?? d.license_type ?? d.credential_name);
  if (!type) return null;
  const expires = text(lic.expires_on ?? lic.expires_at ?? d.expires_on);
  return {
    license_type: type,
    license_number: text(lic.number ?? lic.license_number ?? d.license_number),
    state: text(lic.state ?? d.state),
    issuing_authority: text(lic.issuer ?? lic.issuing_authority ?? d.issuing_authority),
    status: text(lic.status),
    registry_status: text(lic.registry_status ?? d.registry_status ?? lic.status),
    expires_on: expires ? expires.slice(0, 10) : null,
  };
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

  const credential = passed.get("credential");
  const licence = credential ? licenceFromCheck(credential.data) : null;
  if (licence) {
    await upsertProof(tx, accountId, {
      kind: "licence",
      key: `${licence.license_type}|${licence.license_number ?? ""}`,
      content: licence,
      verifiedAt: at,
      validUntil: endOfDay(licence.expires_on),
      sourceSessionId: session.id,
    });
  }

  await tx.accountShare.upsert({
    where: { accountId_appId: { accountId, appId: session.appId } },
    create: { accountId, appId: session.appId, firstSharedAt: at, lastSharedAt: at },
    update: { lastSharedAt: at, revokedAt: null },
  });
}
