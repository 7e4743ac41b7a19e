import "server-only";
import type { Tx } from "./client";

/**
 * PostgreSQL transaction-level advisory locks (pg_advisory_xact_lock): held
 * until the transaction `tx` ends, even if the process dies. The SQL lives
 * here, in the database plumbing, so domains name a lock instead of writing
 * a statement (docs/architecture.md "Data access, one rule").
 */

/** The lock `key` (a stable, arbitrary number the caller owns). */
export async function lockForTransaction(tx: Tx, key: number): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${key}::bigint)`;
}

/** The lock of `name` within the class `classId` (two 32-bit keys: the class, and the name's hash). */
export async function lockNameForTransaction(tx: Tx, classId: number, name: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${classId}::int, hashtext(${name}))`;
}
