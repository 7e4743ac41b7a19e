import { now } from "@/lib/clock";
import { sqlPool } from "@/lib/db/client";
import { describeError, logger } from "@/lib/log/logger";
import { sqlTime } from "./tokens";
import { processSlot } from "@/lib/process-slots";

/**
 * Forgets what has expired: sign-in requests and codes, authorization codes,
 * access tokens, browsers' sign-in sessions, and grants (with their refresh tokens) a day after the
 * login ended. Used refresh tokens are kept until then so a replay is still
 * recognised. Runs every 10 minutes in each process that served an OIDC
 * request (started on the first one); the deletes are idempotent, so
 * several instances can run it.
 */
const INTERVAL_MS = 10 * 60 * 1000;
const oidcMaintenanceSlot = processSlot<NodeJS.Timeout>("oidcMaintenance");

export async function purgeExpiredOidcRows(): Promise<void> {
  const pool = await sqlPool();
  const at = sqlTime(now());
  const dayAgo = sqlTime(new Date(now().getTime() - 24 * 3600_000));
  await pool.query(`DELETE FROM oidc_interactions WHERE expires_at < $1::timestamptz`, [dayAgo]);
  await pool.query(`DELETE FROM account_login_codes WHERE expires_at < $1::timestamptz`, [dayAgo]);
  await pool.query(`DELETE FROM oidc_authorization_codes WHERE expires_at < $1::timestamptz`, [at]);
  await pool.query(`DELETE FROM oidc_access_tokens WHERE expires_at < $1::timestamptz`, [at]);
  await pool.query(`DELETE FROM oidc_grants WHERE expires_at < $1::timestamptz`, [dayAgo]);
  await pool.query(`DELETE FROM oidc_sessions WHERE expires_at < $1::timestamptz`, [at]);
}

export function startOidcMaintenance() {
  if (oidcMaintenanceSlot.value) return;
  oidcMaintenanceSlot.value = setInterval(() => {
    purgeExpiredOidcRows().catch((err) => logger.error("OIDC cleanup failed", describeError(err)));
  }, INTERVAL_MS);
  oidcMaintenanceSlot.value.unref();
}
