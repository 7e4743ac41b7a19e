import { now } from "@/lib/clock";
import { openJson, sealJson } from "@/lib/crypto/encryption";
import { db } from "@/lib/db/client";
import { endOfDay, type LicenceProof } from "@/lib/identity/proofs";
import { describeError, logger } from "@/lib/log/logger";
import { adapterFor, findCatalogueEntry } from "./catalogue";
import { normaliseLicenceNumber, statusOn } from "./normalise";
import { RegistryUnavailableError } from "./types";

/**
 * The daily licence re-check (README "Professional licences"): every stored
 * licence proof that has not expired is looked up again in its registry.
 *   - still active: its registry status and expiry are refreshed (a renewal
 *     moves the expiry on);
 *   - expired, suspended, revoked, inactive, or no longer listed: the proof
 *     takes that status and ends now, so it is never served again (the
 *     identity read, OIDC `/licenses`, `/verifications` and `licence_valid`);
 *   - the registry does not answer, or is no longer configured: unchanged,
 *     tried again on the next run.
 * A proof confirmed less than MIN_HOURS_BETWEEN_CHECKS ago is skipped, so
 * runs that overlap or repeat do not ask a registry twice.
 */
export const MIN_HOURS_BETWEEN_CHECKS = 20;
const CONCURRENCY = 4;

export type RecheckSummary = { checked: number; confirmed: number; lapsed: number; unavailable: number; skipped: number };

type Outcome = keyof Omit<RecheckSummary, "checked">;

async function recheckOne(row: { id: string; sealed: Uint8Array; validUntil: Date | null }, at: Date, force: boolean): Promise<Outcome> {
  const proof = openJson<LicenceProof>(row.sealed);
  const lookup = proof.lookup;
  if (!lookup) return "skipped"; // saved before licences were looked up by this service: nothing to ask
  if (!force && proof.checked_at && at.getTime() - Date.parse(proof.checked_at) < MIN_HOURS_BETWEEN_CHECKS * 3600_000) return "skipped";
  const entry = await findCatalogueEntry({ credential_code: lookup.credential_code });
  if (!entry) return "unavailable";
  let found;
  try {
    found = await adapterFor(entry).lookup({ entry, inputs: lookup.inputs }, { signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    if (err instanceof RegistryUnavailableError) return "unavailable";
    throw err;
  }
  const number = normaliseLicenceNumber(proof.license_number ?? "");
  const licence = found.find((l) => normaliseLicenceNumber(l.license_number) === number);
  const today = at.toISOString().slice(0, 10);
  const status = licence ? statusOn(licence.status, licence.expires_on, today) : "not_found";
  const updated: LicenceProof = {
    ...proof,
    status,
    registry_status: licence?.registry_status ?? "No longer listed in the registry",
    expires_on: licence ? licence.expires_on : proof.expires_on,
    checked_at: at.toISOString(),
  };
  const stillValid = status === "active";
  const validUntil = stillValid ? endOfDay(updated.expires_on) : row.validUntil && row.validUntil < at ? row.validUntil : at;
  const prisma = await db();
  await prisma.accountProof.update({ where: { id: row.id }, data: { sealed: sealJson(updated), validUntil } });
  return stillValid ? "confirmed" : "lapsed";
}

const BATCH = 500;

/** `force`: also the proofs confirmed within MIN_HOURS_BETWEEN_CHECKS (`svc licences:recheck --force`). */
export async function recheckLicences(at: Date = now(), options: { force?: boolean } = {}): Promise<RecheckSummary> {
  const prisma = await db();
  const summary: RecheckSummary = { checked: 0, confirmed: 0, lapsed: 0, unavailable: 0, skipped: 0 };
  let after = "";
  for (;;) {
    const rows = await prisma.accountProof.findMany({
      where: { kind: "licence", id: { gt: after }, OR: [{ validUntil: null }, { validUntil: { gt: at } }] },
      select: { id: true, sealed: true, validUntil: true },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    if (rows.length === 0) return summary;
    after = rows.at(-1)!.id;
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        try {
          const outcome = await recheckOne(row, at, options.force === true);
          summary[outcome] += 1;
          if (outcome !== "skipped") summary.checked += 1;
        } catch (err) {
          summary.unavailable += 1;
          logger.error("licence re-check failed for one proof; it is tried again on the next run", { proof_id: row.id, ...describeError(err) });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }
}
