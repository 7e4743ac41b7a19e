import { beforeAll, describe, expect, it } from "vitest";
import { api, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant } from "../support/api";
import { sql } from "../support/database";
import { useServerDatabase } from "../support/domain";

/**
 * Spec 3.1, row by row. Check results are put in through the domain layer
 * (as the check executors do); the public API has no way to fake one.
 */
useServerDatabase();

type Status = "passed" | "failed" | "review";
let t: Tenant;
let kyc: string; // id_verification + liveness + face_match
let kycAge: string; // + age, whose "review" (an unreadable date of birth) leaves the three face checks passed

beforeAll(async () => {
  t = await createTenant();
  kyc = await createWorkflow(t, ["id_verification", "liveness", "face_match"]);
  kycAge = await createWorkflow(t, ["id_verification", "liveness", "face_match", "age"]);
});

async function sessionWith(workflowId: string, results: Record<string, Status>, finish = true) {
  const { recordCheckResult } = await import("@/lib/sessions/record-check");
  const { completeSession } = await import("@/lib/sessions/complete-session");
  const s = await createSession(t, { workflow_id: workflowId, vendor_data: "review" });
  for (const [type, status] of Object.entries(results)) {
    await recordCheckResult({ sessionId: s.session_id, type: type as never, status, score: status === "passed" ? 0.9 : 0.4 });
  }
  if (finish) await completeSession(s.session_id);
  return s.session_id;
}

const patch = (id: string, status: unknown) =>
  api("PATCH", `/api/v2/session/${id}/status`, { headers: keyHeader(t), json: { status } });
const read = async (id: string) => (await api("GET", `/api/v2/session/${id}`, { headers: keyHeader(t) })).body.data;
const events = (id: string) =>
  sql(shared().env, `SELECT type, payload FROM webhook_events WHERE session_id = $1 ORDER BY created_at`, [id]);

describe("decision engine outcomes", () => {
  it("all passed -> APPROVED with decided_at and a verification.approved event", async () => {
    const id = await sessionWith(kyc, { id_verification: "passed", liveness: "passed", face_match: "passed" });
    const decision = (await api("GET", `/api/v2/session/${id}/decision`, { headers: keyHeader(t) })).body.data;
    expect(decision).toMatchObject({ status: "APPROVED", decision: "approved", origin: "fresh" });
    expect(decision.checks.map((c: { status: string }) => c.status)).toEqual(["passed", "passed", "passed"]);
    expect(decision.checks[0].score).toBe(0.9);
    expect(decision.verifications.face_match).toEqual({ status: "passed" });
    expect(Date.parse(decision.decided_at)).toBeGreaterThan(0);
    const ev = await events(id);
    expect(ev.map((e) => e.type)).toEqual(["verification.approved"]);
    expect(ev[0].payload).toMatchObject({ session_id: id, status: "APPROVED", decision: "approved", vendor_data: "review" });
  });

  it("a failure -> DECLINED; a check that never ran is not_performed", async () => {
    const id = await sessionWith(kyc, { id_verification: "passed", liveness: "passed" });
    const decision = (await api("GET", `/api/v2/session/${id}/decision`, { headers: keyHeader(t) })).body.data;
    expect(decision.status).toBe("DECLINED");
    expect(decision.checks[2]).toMatchObject({ type: "face_match", status: "not_performed", error: { code: "not_performed" } });
  });

  it("a borderline result -> IN_REVIEW, with no decided_at yet", async () => {
    const id = await sessionWith(kyc, { id_verification: "passed", liveness: "passed", face_match: "review" });
    const s = await read(id);
    expect(s.status).toBe("IN_REVIEW");
    expect(s.decided_at).toBeNull();
    expect((await events(id)).map((e) => [e.type, e.payload.status])).toEqual([["verification.completed", "IN_REVIEW"]]);
  });
});

describe("PATCH /api/v2/session/{id}/status (spec 3.1)", () => {
  it("IN_REVIEW + APPROVED with the three face checks passed -> APPROVED, terminal, audited", async () => {
    const id = await sessionWith(kycAge, {
      id_verification: "passed",
      liveness: "passed",
      face_match: "passed",
      age: "review",
    });
    expect((await read(id)).status).toBe("IN_REVIEW");
    const res = await patch(id, "APPROVED");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ session_id: id, status: "APPROVED" });
    expect(res.body.data.decided_at).not.toBeNull();
    const audit = await sql(shared().env, `SELECT actor, action, data, request_id, app_id FROM audit_logs WHERE target = $1`, [id]);
    expect(audit).toEqual([
      {
        actor: expect.stringMatching(/^api_key:sk_test_/),
        action: "session.manual_decision",
        data: { from: "IN_REVIEW", to: "APPROVED", at: expect.any(String) },
        request_id: res.headers.get("x-request-id"),
        app_id: t.appId,
      },
    ]);
    expect((await events(id)).map((e) => [e.type, e.payload.status])).toEqual([
      ["verification.completed", "IN_REVIEW"],
      ["verification.approved", "APPROVED"],
    ]);
    // Terminal: no further checks, no further decisions.
    const { recordCheckResult } = await import("@/lib/sessions/record-check");
    await expect(recordCheckResult({ sessionId: id, type: "liveness", status: "failed" })).rejects.toMatchObject({ code: "session_closed" });
    const again = await patch(id, "DECLINED");
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("review_not_pending");
  });

  it("IN_REVIEW + APPROVED with a face check not passed -> 409 required_face_checks_incomplete, unchanged", async () => {
    const id = await sessionWith(kyc, { id_verification: "passed", liveness: "passed", face_match: "review" });
    const res = await patch(id, "APPROVED");
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("required_face_checks_incomplete");
    expect((await read(id)).status).toBe("IN_REVIEW");
    expect(await sql(shared().env, `SELECT 1 FROM audit_logs WHERE target = $1`, [id])).toHaveLength(0);
  });

  it("IN_REVIEW + DECLINED -> DECLINED, audited, with an event", async () => {
    const id = await sessionWith(kyc, { id_verification: "passed", liveness: "passed", face_match: "review" });
    const res = await patch(id, "DECLINED");
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("DECLINED");
    expect(await sql(shared().env, `SELECT 1 FROM audit_logs WHERE target = $1`, [id])).toHaveLength(1);
    expect((await events(id)).map((e) => [e.type, e.payload.status])).toEqual([
      ["verification.completed", "IN_REVIEW"],
      ["verification.completed", "DECLINED"],
    ]);
  });

  it("any state other than IN_REVIEW -> 409 review_not_pending, unchanged", async () => {
    const notStarted = (await createSession(t, { workflow_id: kyc })).session_id;
    const inProgress = await sessionWith(kyc, { liveness: "passed" }, false);
    const approved = await sessionWith(kyc, { id_verification: "passed", liveness: "passed", face_match: "passed" });
    const declined = await sessionWith(kyc, { id_verification: "failed", liveness: "passed", face_match: "passed" });
    for (const [id, status] of [
      [notStarted, "NOT_STARTED"],
      [inProgress, "IN_PROGRESS"],
      [approved, "APPROVED"],
      [declined, "DECLINED"],
    ] as const) {
      for (const to of ["APPROVED", "DECLINED"]) {
        const res = await patch(id, to);
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ success: false, data: { status }, error: { code: "review_not_pending" } });
      }
      expect((await read(id)).status).toBe(status);
    }
  });

  it("two reviewers at once: one decision wins, the other is review_not_pending", async () => {
    const id = await sessionWith(kyc, { id_verification: "passed", liveness: "passed", face_match: "review" });
    const results = await Promise.all([patch(id, "DECLINED"), patch(id, "DECLINED"), patch(id, "DECLINED")]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await sql(shared().env, `SELECT 1 FROM audit_logs WHERE target = $1`, [id])).toHaveLength(1);
  });

  it.each([[{}], [{ status: "approved" }], [{ status: "IN_REVIEW" }], [{ status: "APPROVED", note: "x" }]])(
    "body %j -> 400 invalid_request",
    async (json) => {
      const id = (await createSession(t, { workflow_id: kyc })).session_id;
      const res = await api("PATCH", `/api/v2/session/${id}/status`, { headers: keyHeader(t), json });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    },
  );
});

describe("expiry", () => {
  it("an unstarted session past expires_at becomes EXPIRED; a started one ABANDONED (injected clock)", async () => {
    const { expireDueSessions } = await import("@/lib/sessions/expire-sessions");
    const { setClock } = await import("@/lib/clock");
    const { recordCheckResult } = await import("@/lib/sessions/record-check");
    const idle = await createSession(t, { workflow_id: kyc, ttl_seconds: 300 });
    const started = await createSession(t, { workflow_id: kyc, ttl_seconds: 300 });
    await recordCheckResult({ sessionId: started.session_id, type: "liveness", status: "passed" });
    const later = await createSession(t, { workflow_id: kyc, ttl_seconds: 3600 });

    const in301s = new Date(Date.now() + 301_000);
    setClock({ now: () => in301s });
    try {
      expect(await expireDueSessions({ appId: t.appId })).toBeGreaterThanOrEqual(2);
      // An expired session takes no checks: 410, as the hosted flow answers it (one open-session rule).
      await expect(recordCheckResult({ sessionId: idle.session_id, type: "liveness", status: "passed" })).rejects.toMatchObject({
        code: "session_expired",
      });
    } finally {
      setClock(null);
    }
    expect((await read(idle.session_id)).status).toBe("EXPIRED");
    expect((await read(started.session_id)).status).toBe("ABANDONED");
    expect((await read(later.session_id)).status).toBe("NOT_STARTED");
    expect((await events(idle.session_id)).map((e) => [e.type, e.payload.status])).toEqual([["verification.completed", "EXPIRED"]]);
    expect((await events(started.session_id)).map((e) => [e.type, e.payload.status])).toEqual([["verification.completed", "ABANDONED"]]);
    const decision = (await api("GET", `/api/v2/session/${idle.session_id}/decision`, { headers: keyHeader(t) })).body.data;
    expect(decision).toMatchObject({ status: "EXPIRED", decision: "expired" });
    expect(decision.checks.every((c: { status: string }) => c.status === "not_performed")).toBe(true);
    const res = await patch(idle.session_id, "DECLINED");
    expect(res.body.error.code).toBe("review_not_pending");
    // A second sweep changes nothing and emits nothing.
    setClock({ now: () => in301s });
    try {
      await expireDueSessions({ appId: t.appId });
    } finally {
      setClock(null);
    }
    expect(await events(idle.session_id)).toHaveLength(1);
  });
});
