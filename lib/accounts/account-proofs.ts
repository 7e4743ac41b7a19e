import { now } from "@/lib/clock";
import { sqlPool } from "@/lib/db/client";

/**
 * What an account has proven, read from the verification sessions bound to
 * it (`svc_access_token` at session creation) that ended APPROVED: the
 * authoritative check results. Only verdicts and licence facts leave here,
 * never document fields (spec 2.10). The reusable identity profile (spec
 * 2.4) will add its own records; these reads then take them from there.
 */
export type LicenceProof = {
  type: string | null;
  number: string | null;
  status: string | null;
  expiresOn: string | null;
  issuer: string | null;
  verifiedAt: string | null;
  expired: boolean;
};

export type AccountProofs = {
  idVerified: boolean;
  humanVerified: boolean;
  licences: LicenceProof[];
};

type Row = { type: string; status: string; data: Record<string, unknown> | null; session_status: string; decided_at: Date | null };

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

function dateOnly(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10);
}

/** A passed `credential` check's licence: `data.license { type, number, status, expires_at|expires_on, issuer }`. */
function licenceOf(row: Row): LicenceProof {
  const data = row.data ?? {};
  const lic = (data.license && typeof data.license === "object" ? data.license : {}) as Record<string, unknown>;
  const expiresOn = dateOnly(lic.expires_on ?? lic.expires_at ?? data.expires_on);
  const today = now().toISOString().slice(0, 10);
  return {
    type: str(lic.type ?? lic.license_type ?? data.license_type ?? data.credential_name),
    number: str(lic.number ?? lic.license_number ?? data.license_number),
    status: str(lic.status),
    expiresOn,
    issuer: str(lic.issuer ?? lic.issuing_authority ?? data.issuing_authority),
    verifiedAt: row.decided_at?.toISOString() ?? null,
    expired: expiresOn !== null && expiresOn < today,
  };
}

export async function readAccountProofs(accountId: string): Promise<AccountProofs> {
  const pool = await sqlPool();
  const { rows } = await pool.query<Row>(
    `SELECT c.type, c.status, c.data, s.status AS session_status, s.decided_at
       FROM sessions s JOIN check_results c ON c.session_id = s.id
      WHERE s.account_id = $1 AND s.status IN ('APPROVED', 'DECLINED')
        AND c.type IN ('id_verification', 'liveness', 'credential')
      ORDER BY s.decided_at DESC NULLS LAST`,
    [accountId],
  );
  const approved = rows.filter((r) => r.session_status === "APPROVED" && r.status === "passed");
  const idVerified = approved.some((r) => r.type === "id_verification");
  const livenessPassed = approved.some((r) => r.type === "liveness");
  const livenessTried = rows.some((r) => r.type === "liveness");
  const seen = new Set<string>();
  const licences: LicenceProof[] = [];
  for (const r of approved) {
    if (r.type !== "credential") continue;
    const l = licenceOf(r);
    const key = `${l.type}|${l.number}`;
    if (seen.has(key)) continue; // newest first
    seen.add(key);
    licences.push(l);
  }
  return {
    idVerified,
    // Spec 2.10: falls back to id_verified when no explicit human check exists.
    humanVerified: livenessTried ? livenessPassed : idVerified,
    licences,
  };
}
