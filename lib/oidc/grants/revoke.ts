import { now } from "@/lib/clock";
import { sqlPool } from "@/lib/db/client";
import { sqlTime } from "../tokens";

/**
 * Revocation works on grants: every code, access token and refresh token
 * hangs off one, and every lookup requires its grant unrevoked, so it takes
 * effect at once on every instance.
 */

/** One grant: what an authorization code issued (code reuse). */
export async function revokeGrant(grantId: string): Promise<void> {
  const pool = await sqlPool();
  await pool.query(`UPDATE oidc_grants SET revoked_at = $2::timestamptz WHERE id = $1 AND revoked_at IS NULL`, [grantId, sqlTime(now())]);
}

/** Every grant of a person for one client (refresh token replay, logout). Returns how many. */
export async function revokeAccountGrants(accountId: string, appId: string): Promise<number> {
  const pool = await sqlPool();
  const { rowCount } = await pool.query(
    `UPDATE oidc_grants SET revoked_at = $3::timestamptz WHERE account_id = $1 AND app_id = $2 AND revoked_at IS NULL`,
    [accountId, appId, sqlTime(now())],
  );
  return rowCount ?? 0;
}

/** Every grant of a person for the given clients (e.g. a deactivated organization member's app logins). */
export async function revokeAccountGrantsForApps(accountId: string, appIds: string[]): Promise<number> {
  if (appIds.length === 0) return 0;
  const pool = await sqlPool();
  const { rowCount } = await pool.query(
    `UPDATE oidc_grants SET revoked_at = $3::timestamptz WHERE account_id = $1 AND app_id = ANY($2::text[]) AND revoked_at IS NULL`,
    [accountId, appIds, sqlTime(now())],
  );
  return rowCount ?? 0;
}
