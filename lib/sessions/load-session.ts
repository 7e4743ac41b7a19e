import type { ExpressionBuilder } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { DB } from "@/generated/kysely/database";
import type { Prisma, Session } from "@/generated/prisma/client";
import { prepareQuery, runPrepared, typedSql } from "@/lib/db/typed-sql";

/**
 * The hot read path (retrieve, decision): one SQL round trip for a session
 * and its check results, instead of several ORM queries (the ORM costs about
 * a millisecond of CPU per query; see `npm run bench`).
 */
export type CheckView = { type: string; status: string; score: number | null; data: unknown; error: unknown };

/** Every column of `sessions as s`, named as the Prisma client names them: a row is a `Session`. */
export function sessionColumns(eb: ExpressionBuilder<DB & { s: DB["sessions"] }, "s">) {
  return [
    "s.id",
    "s.app_id as appId",
    "s.workflow_id as workflowId",
    eb.ref("s.workflow_snapshot").$castTo<Prisma.JsonValue>().as("workflowSnapshot"),
    "s.features",
    "s.status",
    "s.vendor_data as vendorData",
    "s.redirect_url as redirectUrl",
    "s.callback_url as callbackUrl",
    "s.language",
    eb.ref("s.metadata").$castTo<Prisma.JsonValue>().as("metadata"),
    "s.session_token_hash as sessionTokenHash",
    "s.account_id as accountId",
    "s.expires_at as expiresAt",
    "s.started_at as startedAt",
    "s.completed_at as completedAt",
    "s.decided_at as decidedAt",
    "s.created_at as createdAt",
    "s.updated_at as updatedAt",
  ] as const;
}

const sessionWithChecks = prepareQuery("session_with_checks", (v: { id: string; appId: string }) =>
  typedSql
    .selectFrom("sessions as s")
    .select((eb) => [
      ...sessionColumns(eb),
      jsonArrayFrom(
        eb.selectFrom("check_results as c").select(["c.type", "c.status", "c.score", "c.data", "c.error"]).whereRef("c.session_id", "=", "s.id"),
      ).as("checks"),
    ])
    .where("s.id", "=", v.id)
    .where("s.app_id", "=", v.appId),
);

export async function loadSessionWithChecks(
  appId: string,
  id: string,
): Promise<{ session: Session; checks: CheckView[] } | null> {
  const [row] = await runPrepared(sessionWithChecks, { id, appId });
  if (!row) return null;
  const { checks, ...session } = row;
  return { session: session satisfies Session, checks };
}
