import { randomBytes } from "node:crypto";
import { sql } from "./database";

/**
 * `count` events of `appId` with one due delivery each to `webhookId`,
 * written straight into the outbox as that many sessions ending at once
 * would. Returns the event ids.
 */
export async function insertEvents(env: Record<string, string>, t: { appId: string; webhookId: string; url: string; count: number }) {
  const ids = Array.from({ length: t.count }, (_, i) => `evt_load_${i}_${randomBytes(4).toString("hex")}`);
  const values = ids
    .map((id, i) => `('${id}', '${t.appId}', NULL, 'verification.approved', '${JSON.stringify({
      event_id: id, type: "verification.approved", session_id: `s${i}`, status: "APPROVED", vendor_data: null,
      decision: "approved", occurred_at: new Date().toISOString(),
    })}'::jsonb)`)
    .join(",");
  await sql(env, `INSERT INTO webhook_events (id, app_id, session_id, type, payload) VALUES ${values}`);
  await sql(
    env,
    `INSERT INTO webhook_deliveries (id, event_id, app_id, endpoint_id, url, next_attempt_at, updated_at)
     SELECT gen_random_uuid()::text, e.id, e.app_id, $1, $2, now(), now() FROM webhook_events e
      WHERE e.id = ANY($3::text[])`,
    [t.webhookId, t.url, ids],
  );
  return ids;
}
