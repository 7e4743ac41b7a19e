import { sql } from "kysely";
import type { Session } from "@/generated/prisma/client";
import type { KeysetCursor } from "@/lib/http/keyset-cursor";
import { prepareQuery, runPrepared, typedSql, type PreparedQuery } from "@/lib/db/typed-sql";
import { sessionColumns } from "./load-session";

/**
 * The one session list query, for the API's list (GET /api/v2/session) and
 * the portal's (the sessions page, the review queue): an app's sessions,
 * with the equality filters of spec 4.1 (`status`, `vendor_data`), ordered
 * by (created_at, id), newest or oldest first, starting after a keyset
 * cursor. Every combination is one range of an index
 * `sessions (app_id[, status | vendor_data], created_at, id)` read in
 * order and stopped at `limit`: a page costs the same on the first page of
 * ten sessions as deep into a hundred thousand (no offset, no count).
 * Each combination is compiled once and runs as its own prepared statement.
 */
export type SessionSelection = {
  status?: string;
  vendorData?: string;
  after?: KeysetCursor | null;
  order: "newest" | "oldest";
  limit: number;
};

type Values = { appId: string; status: string; vendorData: string; afterTime: string; afterId: string; limit: number };
type Shape = { status: boolean; vendorData: boolean; after: boolean; order: "newest" | "oldest" };

function build(shape: Shape) {
  const name = `sessions_list_${shape.order}${shape.status ? "_status" : ""}${shape.vendorData ? "_vendor" : ""}${shape.after ? "_after" : ""}`;
  const direction = shape.order === "newest" ? "desc" : "asc";
  return prepareQuery(name, (v: Values) => {
    let query = typedSql.selectFrom("sessions as s").select((eb) => sessionColumns(eb)).where("s.app_id", "=", v.appId);
    if (shape.status) query = query.where("s.status", "=", v.status);
    if (shape.vendorData) query = query.where("s.vendor_data", "=", v.vendorData);
    if (shape.after) {
      // A row comparison: with the index's (created_at, id) it is an index condition, not a filter.
      query = query.where((eb) =>
        eb(eb.refTuple("s.created_at", "s.id"), shape.order === "newest" ? "<" : ">", eb.tuple(sql<Date>`${v.afterTime}::timestamptz`, v.afterId)),
      );
    }
    return query.orderBy("s.created_at", direction).orderBy("s.id", direction).limit(v.limit);
  });
}

const prepared = new Map<string, PreparedQuery<Values, Session[]>>();

function queryFor(shape: Shape): PreparedQuery<Values, Session[]> {
  const key = JSON.stringify(shape);
  let query = prepared.get(key);
  if (!query) {
    query = build(shape) as PreparedQuery<Values, Session[]>;
    prepared.set(key, query);
  }
  return query;
}

export async function selectSessions(appId: string, selection: SessionSelection): Promise<Session[]> {
  const query = queryFor({
    status: selection.status !== undefined,
    vendorData: selection.vendorData !== undefined,
    after: Boolean(selection.after),
    order: selection.order,
  });
  return runPrepared(query, {
    appId,
    status: selection.status ?? "",
    vendorData: selection.vendorData ?? "",
    afterTime: selection.after?.t ?? "",
    afterId: selection.after?.id ?? "",
    limit: selection.limit,
  });
}
