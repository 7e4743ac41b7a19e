import type pg from "pg";
import { decryptString, encryptString } from "@/lib/crypto/encryption";

/**
 * Where the person was is personal data: a location check's stored `data`
 * (check_results) keeps the verdict in the clear (`distance_m`, `radius_m`,
 * `match`) and the person's fix (`lat`, `lng`, `accuracy_m`) sealed with
 * encryptString under this key. The decision opens it again (spec 2.2 rule
 * 4 reports the coordinates), so what the API answers is unchanged. docs/operations.md
 * "Secrets and personal data at rest".
 */
export const SEALED_FIX_FIELD = "fix_sealed";

const FIX_FIELDS = ["lat", "lng", "accuracy_m"] as const;

/** The check's data as stored: the fix's fields replaced by one sealed field. */
export function sealLocationData(data: Record<string, unknown>): Record<string, unknown> {
  const fix = Object.fromEntries(FIX_FIELDS.filter((k) => data[k] !== undefined).map((k) => [k, data[k]]));
  const rest = Object.fromEntries(Object.entries(data).filter(([k]) => !(FIX_FIELDS as readonly string[]).includes(k)));
  return Object.keys(fix).length === 0 ? rest : { ...rest, [SEALED_FIX_FIELD]: encryptString(JSON.stringify(fix)) };
}

/** A stored check's data as the API shows it: a location check's sealed fix opened (other checks as they are). */
export function openCheckData(type: string, data: unknown): Record<string, unknown> {
  const stored = (data ?? {}) as Record<string, unknown>;
  const sealed = stored[SEALED_FIX_FIELD];
  if (type !== "location" || typeof sealed !== "string") return stored;
  const { [SEALED_FIX_FIELD]: _sealed, ...rest } = stored;
  return { ...(JSON.parse(decryptString(sealed)) as Record<string, unknown>), ...rest };
}

/**
 * Seals the fixes of location checks stored before they were sealed (an
 * install upgraded from then): run by the migration runner after the
 * migrations, under its lock, like the face templates' backfill;
 * idempotent. Returns how many checks it sealed. Its query is the predicate
 * of the partial index check_results_unsealed_location_fixes_idx (migration
 * 20261125024000), empty once every fix is sealed: no table scan per start.
 */
/** The location checks whose fix is still in clear: exactly the partial index's predicate (it is empty once they are sealed). */
export const UNSEALED_LOCATION_FIXES = `SELECT id, data FROM check_results WHERE type = 'location' AND (data ? 'lat' OR data ? 'lng' OR data ? 'accuracy_m')`;

export async function sealStoredLocationFixes(client: pg.Client, log: (line: string) => void = () => {}): Promise<number> {
  const { rows: table } = await client.query<{ found: boolean }>("SELECT to_regclass('check_results') IS NOT NULL AS found");
  if (!table[0]?.found) return 0; // migrated only part of the way (tests do)
  let sealed = 0;
  for (;;) {
    const { rows } = await client.query<{ id: string; data: Record<string, unknown> }>(
      `${UNSEALED_LOCATION_FIXES} LIMIT 500`,
    );
    if (rows.length === 0) break;
    await client.query(
      `UPDATE check_results c SET data = u.data FROM unnest($1::text[], $2::jsonb[]) AS u(id, data) WHERE c.id = u.id`,
      [rows.map((r) => r.id), rows.map((r) => JSON.stringify(sealLocationData(r.data)))],
    );
    sealed += rows.length;
  }
  if (sealed > 0) log(`sealed the coordinates of ${sealed} location checks`);
  return sealed;
}
