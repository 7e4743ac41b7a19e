import type { Session } from "@/generated/prisma/client";
import { sqlPool } from "@/lib/db/client";

/**
 * The hot read path (retrieve, decision): one SQL round trip for a session
 * and its check results, instead of several ORM queries (the ORM costs about
 * a millisecond of CPU per query; see `npm run bench`).
 */
export type CheckView = { type: string; status: string; score: number | null; data: unknown; error: unknown };

type Row = {
  id: string;
  app_id: string;
  workflow_id: string;
  workflow_snapshot: unknown;
  features: string[];
  status: string;
  vendor_data: string | null;
  redirect_url: string | null;
  callback_url: string | null;
  metadata: unknown;
  session_token_hash: string;
  account_id: string | null;
  expires_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
  checks: CheckView[];
};

function toSession(r: Row): Session {
  return {
    id: r.id,
    appId: r.app_id,
    workflowId: r.workflow_id,
    workflowSnapshot: r.workflow_snapshot as Session["workflowSnapshot"],
    features: r.features,
    status: r.status,
    vendorData: r.vendor_data,
    redirectUrl: r.redirect_url,
    callbackUrl: r.callback_url,
    metadata: r.metadata as Session["metadata"],
    sessionTokenHash: r.session_token_hash,
    accountId: r.account_id,
    expiresAt: r.expires_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    decidedAt: r.decided_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function loadSessionWithChecks(
  appId: string,
  id: string,
): Promise<{ session: Session; checks: CheckView[] } | null> {
  const pool = await sqlPool();
  const { rows } = await pool.query<Row>(
    `SELECT s.*,
            COALESCE((SELECT json_agg(json_build_object('type', c.type, 'status', c.status, 'score', c.score,
                                                       'data', c.data, 'error', c.error))
                        FROM check_results c WHERE c.session_id = s.id), '[]'::json) AS checks
       FROM sessions s
      WHERE s.id = $1 AND s.app_id = $2`,
    [id, appId],
  );
  const row = rows[0];
  return row ? { session: toSession(row), checks: row.checks } : null;
}
