import "server-only";
import type pg from "pg";
import { sql } from "kysely";
import { sqlPool } from "./client";
import type { PreparedQuery } from "./typed-sql";

/**
 * Reads from one consistent snapshot, and snapshot horizons: the oldest
 * transaction still running when a snapshot was taken (pg_snapshot_xmin, an
 * xid8), so a later read knows which transactions' changes it may not have
 * seen yet. Transaction modes, cursors and snapshot functions are not a
 * table's query that Prisma or Kysely could write, so their SQL text lives
 * here, in the database plumbing (docs/architecture.md "Data access, one
 * rule"); what is read is a typed prepared query (lib/db/typed-sql.ts).
 */

/** The horizon of a snapshot taken now, as text (an xid8). */
const HORIZON = "pg_snapshot_xmin(pg_current_snapshot())::text";

/**
 * Reads every row of `query` in batches of `batch`, all from one READ ONLY
 * REPEATABLE READ snapshot, through a cursor. Each batch is asked for before
 * the previous one is handed to `each`, so the database reads while the
 * caller works; `each` also gets the snapshot's connection, to read more in
 * the same snapshot. Returns the snapshot's horizon: changes by transactions
 * at or after it may be missing from what was read.
 */
export async function readOneSnapshot<V, R extends unknown[]>(
  query: PreparedQuery<V, R>,
  values: V,
  batch: number,
  each: (rows: R, connection: pg.PoolClient) => Promise<void>,
): Promise<string> {
  const cursor = `${query.name}_cursor`;
  const connection = await (await sqlPool()).connect();
  try {
    await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { rows } = await connection.query<{ horizon: string }>(`SELECT ${HORIZON} AS horizon`);
    // The cursor's statement is the prepared query's text and values; DECLARE takes parameters.
    await connection.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${query.text}`, query.slots.map((slot) => ("key" in slot ? (values as Record<string, unknown>)[slot.key] : slot.constant)));
    const ask = () => {
      const asked = connection.query(`FETCH ${batch} FROM ${cursor}`);
      asked.catch(() => {}); // awaited below; a read that fails first must not leave it unhandled
      return asked;
    };
    let next = ask();
    for (;;) {
      const { rows: found } = await next;
      const last = found.length < batch;
      if (!last) next = ask();
      await each(found as R, connection);
      if (last) break;
    }
    await connection.query("COMMIT");
    return rows[0]!.horizon;
  } catch (err) {
    await connection.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    connection.release();
  }
}

/**
 * The horizon of the statement's own snapshot, as an expression to select
 * beside what the statement reads (e.g. the changes since the previous
 * horizon, and the horizon to read them from next time).
 */
export const snapshotHorizon = () => sql<string>`${sql.raw(HORIZON)}`;
