import type { QueryResultRow } from "pg";
import { env } from "@/lib/config/env";
import { randomToken } from "@/lib/crypto/secrets";
import { sqlPool } from "@/lib/db/client";

/**
 * Opaque values the provider hands out. Only their SHA-256 is stored
 * (lib/crypto/secrets.ts hashSecret); the prefix tells them apart in logs
 * and support requests. Access tokens are opaque too (not JWTs): every use
 * looks them up, so revocation takes effect at once.
 */
export const newAuthorizationCode = () => randomToken("ac_", 32);
export const newAccessToken = () => randomToken("at_", 32);
export const newRefreshToken = () => randomToken("rt_", 32);

/** An instant for plain SQL, as an ISO string: cast it with `$n::timestamptz`. */
export const sqlTime = (d: Date) => d.toISOString();

/**
 * Runs one of the provider's hot statements. On PostgreSQL it is a named
 * prepared statement: planned once per connection instead of on every call
 * (planning was most of the database's CPU per token request). The embedded
 * database shares one session between all connections, where a statement
 * name would collide, so it runs unnamed there. `text` must be constant per
 * `name`.
 */
export async function hotQuery<R extends QueryResultRow>(name: string, text: string, values: unknown[]) {
  const pool = await sqlPool();
  return pool.query<R>(env().DATABASE_URL ? { name, text, values } : { text, values });
}
