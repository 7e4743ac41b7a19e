import { beforeAll, describe, expect, it } from "vitest";
import { api, bearer, checkOf, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant } from "../support/api";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";
import { fixture } from "../support/images";
import { licence, postBurst, postDocument } from "../support/kyc";

/**
 * Issue 33 item 21 (docs/sessions.md "Decision engine"):
 * a check that already declines the session ends the flow there. Person B's
 * licence (tests/fixtures/documents: she is 19) against a production app
 * whose workflow asks for 21: the session is DECLINED after the document
 * step, only the document step is billed, and the liveness step is refused.
 */
useServerDatabase();

let t: Tenant;
let adultsOnly: string;
beforeAll(async () => {
  t = await createTenant(shared().env, "production");
  adultsOnly = await createWorkflow(t, ["id_verification", "age", "liveness", "face_match"], {
    settings: { liveness: { actions: ["turn_left", "turn_right"], actions_per_challenge: 2 }, age: { minimum_age: 21 } },
  });
});

async function charges(sessionId: string) {
  const rows = await sql(shared().env, `SELECT reference, amount_cents FROM ledger_entries WHERE kind = 'check_charge' AND reference LIKE $1 ORDER BY reference`, [
    `check:${sessionId}:%`,
  ]);
  return rows.map((r: { reference: string; amount_cents: number }) => [r.reference.split(":")[2], r.amount_cents]);
}

describe("a check that decides the session stops the flow", () => {
  it("an under-age document declines the session at once: billed for the document step only, liveness refused 409 session_closed", async () => {
    const s = await createSession(t, { workflow_id: adultsOnly, redirect_url: "https://shop.example/done" });
    const doc = await postDocument(s.session_token, "driving_licence", licence("b"));
    expect(doc.status).toBe(200);
    expect(checkOf(doc, "id_verification").status).toBe("passed");
    expect(checkOf(doc, "age")).toMatchObject({ status: "failed", data: { meets_minimum_age: false }, error: { code: "under_minimum_age" } });
    expect(doc.body.data.session_status).toBe("DECLINED");

    // Decided now, as a normal decision: status, decision endpoint, event.
    const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { headers: keyHeader(t) });
    expect(decision.body.data).toMatchObject({
      status: "DECLINED",
      verifications: { id_verification: { status: "passed" }, age: { status: "failed" }, liveness: { status: "not_performed" }, face_match: { status: "not_performed" } },
    });
    const events = await sql(shared().env, `SELECT payload FROM webhook_events WHERE session_id = $1`, [s.session_id]);
    expect(events.map((e: { payload: { status: string } }) => e.payload.status)).toEqual(["DECLINED"]);

    // The hosted page learns why, without personal data.
    const flow = await api("GET", "/api/v2/flow", { headers: bearer(s.session_token) });
    expect(flow.body.data).toMatchObject({ status: "DECLINED", stopped_by: { type: "age", code: "under_minimum_age" } });
    expect(flow.body.data.return_url).toBe(`https://shop.example/done?status=declined&session_id=${s.session_id}`);

    // Nothing left can change the outcome: liveness is refused, before its challenge is issued.
    const challenge = await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(s.session_token) });
    expect(challenge.status).toBe(409);
    expect(challenge.body.error.code).toBe("session_closed");
    const burst = await api("POST", "/api/v2/antispoof", { headers: bearer(s.session_token), json: {} });
    expect(burst.status).toBe(409);
    expect(burst.body.error.code).toBe("session_closed");
    const retake = await postDocument(s.session_token, "driving_licence", licence("a"));
    expect(retake.status).toBe(409);

    // Only the document step was billed (id_verification and the age read from it).
    expect(await charges(s.session_id)).toEqual([
      ["age", -5],
      ["id_verification", -50],
    ]);
    // Finishing answers the same decision.
    const done = await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });
    expect(done.body.data).toMatchObject({ status: "DECLINED" });
  });

  it("a failed document stops too, without running or billing the age it gives", async () => {
    const s = await createSession(t, { workflow_id: adultsOnly });
    const doc = await postDocument(s.session_token, "driving_licence", licence("a-expired"));
    expect(checkOf(doc, "id_verification")).toMatchObject({ status: "failed", error: { code: "document_expired" } });
    expect(checkOf(doc, "age")).toBeUndefined();
    expect(doc.body.data.session_status).toBe("DECLINED");
    const flow = await api("GET", "/api/v2/flow", { headers: bearer(s.session_token) });
    expect(flow.body.data).toMatchObject({ status: "DECLINED", stopped_by: { type: "id_verification", code: "document_expired" } });
    expect(await charges(s.session_id)).toEqual([["id_verification", -50]]);
  });

  it("an adult's document does not stop the flow: the next step runs", async () => {
    const s = await createSession(t, { workflow_id: adultsOnly });
    const doc = await postDocument(s.session_token, "driving_licence", licence("a"));
    expect(checkOf(doc, "age").status).toBe("passed");
    expect(doc.body.data.session_status).toBe("IN_PROGRESS");
    const live = await postBurst(s.session_token);
    expect(checkOf(live, "liveness").status).toBe("passed");
    const flow = await api("GET", "/api/v2/flow", { headers: bearer(s.session_token) });
    expect(flow.body.data).toMatchObject({ status: "IN_PROGRESS", stopped_by: null });
  });
});

describe("a result that goes to review does not stop the flow", () => {
  it("a document read with a doubt (review) leaves the session open: the reviewer can still approve", async () => {
    const s = await createSession(t, { workflow_id: adultsOnly });
    const doc = await postDocument(s.session_token, "driving_licence", {
      front: licence("b").front,
      back: fixture("documents", "licence-b-back-altered-dob-one-digit.jpg"),
    });
    expect(checkOf(doc, "id_verification")).toMatchObject({ status: "review", error: { code: "front_uncertain" } });
    expect(checkOf(doc, "age").status).toBe("review");
    expect(doc.body.data.session_status).toBe("IN_PROGRESS");
    const challenge = await api("POST", "/api/v2/antispoof/challenge", { headers: bearer(s.session_token) });
    expect(challenge.status).toBe(201);
  });
});
