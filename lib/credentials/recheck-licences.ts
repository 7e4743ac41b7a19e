import { now } from "@/lib/clock";
import { openJson, sealJson } from "@/lib/crypto/encryption";
import { db } from "@/lib/db/client";
import { endOfDay, type LicenceProof } from "@/lib/identity/proofs";
import { describeError, logger } from "@/lib/log/logger";
import { adapterFor, listCatalogue } from "@/lib/licence-registries/catalogue";
import { holderNameMatch } from "@/lib/licence-registries/holder-name";
import { normaliseLicenceNumber, statusOn } from "@/lib/licence-registries/normalise";
import { RegistryUnavailableError, type CatalogueEntry, type RegistryLicence } from "@/lib/licence-registries/types";

/**
 * The daily licence re-check (docs/licences.md): every stored
 * licence proof that has not expired is looked up again in its registry.
 *   - still listed, for the same holder, and active: its registry status and
 *     expiry are refreshed (a renewal moves the expiry on) and it counts as
 *     confirmed now;
 *   - expired, suspended, revoked, inactive, no longer listed, or listed for
 *     another holder: the proof takes that status and ends now, so it is
 *     never served again (identity read, OIDC `/licenses`, `/verifications`,
 *     `licence_valid`);
 *   - the registry does not answer, or is no longer configured: unchanged,
 *     tried again on the next run (a licence not confirmed for
 *     LICENCE_CONFIRMATION_DAYS is not served meanwhile: lib/identity/predicates.ts).
 * A proof confirmed less than MIN_HOURS_BETWEEN_CHECKS ago is skipped, so
 * runs that overlap or repeat do not ask a registry twice. After
 * MAX_CONSECUTIVE_UNAVAILABLE unanswered lookups in a row a provider is left
 * alone for the rest of the run. A proof changed while it was being checked
 * (a new approval of the same licence) is left as that change made it.
 */
export const MIN_HOURS_BETWEEN_CHECKS = 20;
export const MAX_CONSECUTIVE_UNAVAILABLE = 5;
const CONCURRENCY = 4;
const BATCH = 500;

export type RecheckSummary = { checked: number; confirmed: number; lapsed: number; unavailable: number; skipped: number };
type Outcome = keyof Omit<RecheckSummary, "checked">;
type ProofRow = { id: string; sealed: Uint8Array; validUntil: Date | null; updatedAt: Date };

/** The registry's record of the proof's licence: the same number, and (when the proof knows it) the same holder. */
function sameLicence(proof: LicenceProof, found: RegistryLicence[]): RegistryLicence | undefined {
  const number = normaliseLicenceNumber(proof.license_number ?? "");
  return found.find(
    (l) => normaliseLicenceNumber(l.license_number) === number && (!proof.holder || holderNameMatch(l.holder, proof.holder) === "same"),
  );
}

type Run = { at: Date; force: boolean; catalogue: ReadonlyMap<string, CatalogueEntry>; downProviders: Map<string, number> };

async function recheckOne(row: ProofRow, { at, force, catalogue, downProviders }: Run): Promise<Outcome> {
  const proof = openJson<LicenceProof>(row.sealed);
  const lookup = proof.lookup;
  if (!lookup) return "skipped"; // saved before licences were looked up by this service: nothing to ask
  if (!force && proof.checked_at && at.getTime() - Date.parse(proof.checked_at) < MIN_HOURS_BETWEEN_CHECKS * 3600_000) return "skipped";
  if ((downProviders.get(lookup.provider_code) ?? 0) >= MAX_CONSECUTIVE_UNAVAILABLE) return "unavailable";
  const entry = catalogue.get(lookup.credential_code);
  if (!entry) return "unavailable";
  let found: RegistryLicence[];
  try {
    found = await adapterFor(entry).lookup({ entry, inputs: lookup.inputs }, { signal: AbortSignal.timeout(60_000) });
    downProviders.set(lookup.provider_code, 0);
  } catch (err) {
    if (!(err instanceof RegistryUnavailableError)) throw err;
    downProviders.set(lookup.provider_code, (downProviders.get(lookup.provider_code) ?? 0) + 1);
    return "unavailable";
  }
  const licence = sameLicence(proof, found);
  const status = licence ? statusOn(licence.status, licence.expires_on, at.toISOString().slice(0, 10)) : "not_found";
  const updated: LicenceProof = {
    ...proof,
    status,
    registry_status: licence?.registry_status ?? "No longer listed in the registry for this holder",
    expires_on: licence ? licence.expires_on : proof.expires_on,
    checked_at: at.toISOString(),
  };
  const stillValid = status === "active";
  const validUntil = stillValid ? endOfDay(updated.expires_on) : row.validUntil && row.validUntil < at ? row.validUntil : at;
  const prisma = await db();
  const written = await prisma.accountProof.updateMany({
    where: { id: row.id, updatedAt: row.updatedAt },
    data: { sealed: sealJson(updated), validUntil },
  });
  if (written.count === 0) return "skipped";
  return stillValid ? "confirmed" : "lapsed";
}

/** `force`: also the proofs confirmed within MIN_HOURS_BETWEEN_CHECKS (`svc licences:recheck --force`). */
export async function recheckLicences(at: Date = now(), options: { force?: boolean } = {}): Promise<RecheckSummary> {
  const prisma = await db();
  const summary: RecheckSummary = { checked: 0, confirmed: 0, lapsed: 0, unavailable: 0, skipped: 0 };
  // The configured credentials, read once for the run.
  const run: Run = { at, force: options.force === true, catalogue: new Map((await listCatalogue()).map((e) => [e.credential_code, e])), downProviders: new Map() };
  let after = "";
  for (;;) {
    const rows = await prisma.accountProof.findMany({
      where: { kind: "licence", id: { gt: after }, OR: [{ validUntil: null }, { validUntil: { gt: at } }] },
      select: { id: true, sealed: true, validUntil: true, updatedAt: true },
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
          const outcome = await recheckOne(row, run);
          summary[outcome] += 1;
          if (outcome === "confirmed" || outcome === "lapsed") summary.checked += 1;
        } catch (err) {
          summary.unavailable += 1;
          logger.error("licence re-check failed for one proof; it is tried again on the next run", { proof_id: row.id, ...describeError(err) });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }
}
