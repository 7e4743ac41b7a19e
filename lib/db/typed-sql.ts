import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
  type InferResult,
} from "kysely";
import type { DB } from "@/generated/kysely/database";
import { env } from "@/lib/config/env";
import { sqlPool, type Tx } from "./client";

/**
 * Typed plain SQL for the hot paths, where the ORM's per-query cost matters.
 * Queries are written with Kysely against the database's own types
 * (generated/kysely/database.ts, made from schema.prisma by prisma-kysely at
 * `prisma generate`): a wrong table or column name, or a row used as the
 * wrong type, fails the type check. Kysely only builds the SQL here; it runs
 * on the shared pool (runQuery) or inside a Prisma transaction
 * (runInTransaction), so it shares their connections and transactions.
 */
export const typedSql = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * Runs a query on the shared pool and returns its typed rows. With `name`,
 * on PostgreSQL it is a named prepared statement: planned once per connection
 * instead of on every call (for the busiest statements, where planning was
 * most of the database's CPU). The embedded database shares one session
 * between all connections, where a statement name would collide, so there it
 * runs unnamed. A named query's SQL must not vary between calls.
 */
export async function runQuery<Q extends Compilable<unknown>>(query: Q, name?: string): Promise<InferResult<Q>> {
  const { sql: text, parameters } = query.compile();
  const values = parameters as unknown[];
  const pool = await sqlPool();
  const { rows } = await pool.query(name && env().DATABASE_URL ? { name, text, values } : { text, values });
  return rows as InferResult<Q>;
}

/** Runs a query inside a Prisma interactive transaction and returns its typed rows. */
export async function runInTransaction<Q extends Compilable<unknown>>(tx: Tx, query: Q): Promise<InferResult<Q>> {
  const { sql: text, parameters } = query.compile();
  return (await tx.$queryRawUnsafe(text, ...(parameters as unknown[]))) as InferResult<Q>;
}
