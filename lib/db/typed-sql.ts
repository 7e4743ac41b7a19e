import "server-only";
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
  type InferResult,
} from "kysely";
import type pg from "pg";
import type { DB } from "@/generated/kysely/database";
import { env } from "@/lib/config/env";
import { sqlPool, type Tx } from "./client";

/**
 * Typed plain SQL for the hot paths, where the ORM's per-query cost matters.
 * Queries are written with Kysely against the database's own types
 * (generated/kysely/database.ts, made from schema.prisma by prisma-kysely at
 * `prisma generate`): a wrong table or column name, or a row used as the
 * wrong type, fails the type check. Kysely only builds the SQL here; it runs
 * on the shared pool or inside a Prisma transaction, so it shares their
 * connections and transactions. Hot-path queries are prepared once
 * (prepareQuery): building and compiling a query with Kysely costs tens to
 * hundreds of microseconds of CPU, too much to pay on every request.
 */
export const typedSql = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const SLOT = Symbol("slot");
type Slot = { readonly [SLOT]: string };
const isSlot = (value: unknown): value is Slot => typeof value === "object" && value !== null && SLOT in value;

/** A query compiled once: its SQL text, and where each call's values go. */
export type PreparedQuery<V, R> = {
  name: string;
  text: string;
  slots: ReadonlyArray<{ key: string } | { constant: unknown }>;
  /** Types only: the values a call passes and the rows it returns. */
  types?: { values: V; rows: R };
};

/**
 * Compiles a query once, at module load. `build` receives stand-ins for the
 * call's values (use each as the value it stands for, never inspect it) and
 * returns the Kysely query; each call then only supplies the values
 * (runPrepared, runPreparedInTransaction). The SQL text never varies, so on
 * PostgreSQL it runs as the named prepared statement `name`.
 */
export function prepareQuery<V extends Record<string, unknown>, Q extends Compilable<unknown>>(
  name: string,
  build: (values: V) => Q,
): PreparedQuery<V, InferResult<Q>> {
  const standIns = new Proxy({}, { get: (_target, key): Slot => ({ [SLOT]: String(key) }) }) as V;
  const { sql: text, parameters } = build(standIns).compile();
  return { name, text, slots: parameters.map((p) => (isSlot(p) ? { key: p[SLOT] } : { constant: p })) };
}

/** A call's values in the order of the query's parameters (`$1`, `$2`, ...), e.g. to EXPLAIN it. */
export function valuesOf<V>(query: PreparedQuery<V, unknown>, values: V): unknown[] {
  return query.slots.map((slot) => ("key" in slot ? (values as Record<string, unknown>)[slot.key] : slot.constant));
}

/**
 * Runs a prepared query on the shared pool and returns its typed rows. On
 * PostgreSQL it is a named prepared statement: planned once per connection
 * instead of on every call (for the busiest statements, planning was most of
 * the database's CPU). The embedded database shares one session between all
 * connections, where a statement name would collide, so there it runs
 * unnamed.
 */
export async function runPrepared<V, R>(query: PreparedQuery<V, R>, values: V): Promise<R> {
  return runPreparedOn(await sqlPool(), query, values);
}

/**
 * Runs a prepared query on a connection the caller holds (a pool client in
 * a transaction of its own, e.g. a snapshot being read), as runPrepared does.
 */
export async function runPreparedOn<V, R>(connection: Pick<pg.Pool, "query">, query: PreparedQuery<V, R>, values: V): Promise<R> {
  const params = valuesOf(query, values);
  const { rows } = await connection.query(
    env().DATABASE_URL ? { name: query.name, text: query.text, values: params } : { text: query.text, values: params },
  );
  return rows as R;
}

/** Runs a prepared query inside a Prisma interactive transaction. */
export async function runPreparedInTransaction<V, R>(tx: Tx, query: PreparedQuery<V, R>, values: V): Promise<R> {
  return (await tx.$queryRawUnsafe(query.text, ...valuesOf(query, values))) as R;
}
