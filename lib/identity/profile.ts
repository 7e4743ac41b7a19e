import { env } from "@/lib/config/env";
import { db, type Tx } from "@/lib/db/client";
import { ageBands as bandsOfAge, ageInYears } from "@/lib/documents/age-verdict";
import { openProof, type Proof } from "./proofs";

/**
 * An account's reusable profile: its proofs, each judged at `at`. A proof is
 * `expired` past its document's or licence's expiry, `stale` once verified
 * longer ago than IDENTITY_STALE_DAYS (default 365), else `valid`; only a
 * valid proof is ever reused or served as verified.
 */
export type ProofState = "valid" | "stale" | "expired";

/** Proofs verified before this instant are stale at `at` (the SQL of the OIDC reads uses it too). */
export function staleBefore(at: Date): Date {
  return new Date(at.getTime() - env().IDENTITY_STALE_DAYS * 86_400_000);
}

export function proofState(proof: Pick<Proof, "verifiedAt" | "validUntil">, at: Date): ProofState {
  if (proof.validUntil && proof.validUntil.getTime() <= at.getTime()) return "expired";
  if (proof.verifiedAt.getTime() < staleBefore(at).getTime()) return "stale";
  return "valid";
}

export type Judged<K extends Proof["kind"]> = Proof<K> & { state: ProofState };

export type Profile = {
  accountId: string;
  document: Judged<"document"> | null;
  face: Judged<"face"> | null;
  licences: Judged<"licence">[];
  /** The newest verification among the profile's proofs. */
  verifiedAt: Date | null;
  /** No proof of the profile is valid any more for want of a recent verification. */
  stale: boolean;
};

export async function readProfile(accountId: string, at: Date, tx?: Tx): Promise<Profile> {
  const client = tx ?? (await db());
  const rows = await client.accountProof.findMany({ where: { accountId }, orderBy: { verifiedAt: "desc" } });
  const judged = rows.map((r) => {
    const proof = openProof(r);
    return { ...proof, state: proofState(proof, at) };
  });
  const document = (judged.find((p) => p.kind === "document") as Judged<"document"> | undefined) ?? null;
  const face = (judged.find((p) => p.kind === "face") as Judged<"face"> | undefined) ?? null;
  const licences = judged.filter((p) => p.kind === "licence") as Judged<"licence">[];
  const verifiedAt = judged[0]?.verifiedAt ?? null;
  return {
    accountId,
    document,
    face,
    licences,
    verifiedAt,
    stale: judged.length > 0 && !judged.some((p) => p.state === "valid") && judged.some((p) => p.state === "stale"),
  };
}

/** The account's enrolled face when valid (a missing or stale one proves nothing): face sign-in, POST /api/v2/antispoof/identity. */
export async function validEnrolledFace(accountId: string, at: Date): Promise<Judged<"face">["content"] | null> {
  const profile = await readProfile(accountId, at);
  return profile.face?.state === "valid" ? profile.face.content : null;
}

/** Age bands from the document proof's date of birth (the date itself never leaves the service). */
export function ageBands(document: Judged<"document"> | null, at: Date): { is_18_plus: boolean | null; is_21_plus: boolean | null } {
  const dob = document?.state !== "expired" ? document?.content.date_of_birth : null;
  if (!dob || !/^\d{4}-\d{2}-\d{2}$/.test(dob)) return { is_18_plus: null, is_21_plus: null };
  return bandsOfAge(ageInYears(dob, at));
}

/** Verified and usable now: a valid document proof. */
export function isIdVerified(profile: Profile): boolean {
  return profile.document?.state === "valid";
}
