import { describe, expect, it } from "vitest";
import { assertSessionOpen } from "@/lib/sessions/open-session";
import { assertWorkflowStartsSessions, sessionTtlSeconds, type SessionWorkflow } from "@/lib/workflows/session-workflow";

/** The session rules as named functions (docs/sessions.md "Session lifecycle", "Sessions"). */
const at = new Date("2030-01-01T12:00:00Z");
const later = new Date(at.getTime() + 60_000);
const earlier = new Date(at.getTime() - 1);

async function codeOf(fn: () => unknown): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

describe("assertSessionOpen", () => {
  it.each([
    ["NOT_STARTED", later, null],
    ["IN_PROGRESS", later, null],
    ["NOT_STARTED", at, "session_expired"], // expires_at reached: expired, even before the sweeper ran
    ["IN_PROGRESS", earlier, "session_expired"],
    ["EXPIRED", later, "session_expired"],
    ["ABANDONED", later, "session_expired"],
    ["APPROVED", later, "session_closed"],
    ["DECLINED", later, "session_closed"],
    ["IN_REVIEW", later, "session_closed"],
    ["IN_REVIEW", earlier, "session_closed"], // a session in review never expires
    ["APPROVED", earlier, "session_closed"],
  ] as const)("%s, expires %s: %s", async (status, expiresAt, code) => {
    expect(await codeOf(() => assertSessionOpen({ status, expiresAt }, at))).toBe(code);
  });
});

describe("assertWorkflowStartsSessions", () => {
  const workflow: SessionWorkflow = {
    id: "w1", appId: "app1", name: "W", features: ["liveness"], settings: {}, isActive: true, deletedAt: null, purpose: "verification",
  };
  it("passes an active workflow of the app with runnable checks (credential too: the NPPES registry is configured by default)", async () => {
    expect(await codeOf(() => assertWorkflowStartsSessions(workflow, "app1"))).toBeNull();
    expect(await codeOf(() => assertWorkflowStartsSessions({ ...workflow, features: ["id_verification", "credential"] }, "app1"))).toBeNull();
  });
  it.each([
    ["unknown", undefined, "workflow_not_found"],
    ["of another app", { ...workflow, appId: "app2" }, "workflow_not_found"],
    ["deleted", { ...workflow, deletedAt: at }, "workflow_not_found"],
    ["inactive", { ...workflow, isActive: false }, "workflow_not_found"],
    ["made for account recovery", { ...workflow, purpose: "recovery_with_id" }, "workflow_not_found"],
  ] as const)("refuses a workflow %s", async (_, w, code) => {
    expect(await codeOf(() => assertWorkflowStartsSessions(w as SessionWorkflow | undefined, "app1"))).toBe(code);
  });
});

describe("sessionTtlSeconds", () => {
  it("takes the request's ttl, else the workflow's, else 24 hours", () => {
    expect(sessionTtlSeconds(600, { session: { ttl_seconds: 3600 } })).toBe(600);
    expect(sessionTtlSeconds(undefined, { session: { ttl_seconds: 3600 } })).toBe(3600);
    expect(sessionTtlSeconds(undefined, {})).toBe(86400);
    expect(sessionTtlSeconds(undefined, null)).toBe(86400);
  });
});

describe("assertReviewerCanSettleCheck (a reviewer settles a check the engine left in review)", () => {
  it.each([
    [{ type: "liveness", status: "review" }, null],
    [{ type: "liveness", status: "passed" }, "check_not_in_review"], // settled: by the engine or by an earlier review
    [{ type: "liveness", status: "failed" }, "check_not_in_review"],
    [null, "check_not_in_review"], // never ran
    [{ type: "face_match", status: "review" }, null], // the three checks spec 3.1's approval needs (CHECKS_A_REVIEWER_SETTLES)
    [{ type: "id_verification", status: "review" }, null],
    [{ type: "face_match", status: "failed" }, "check_not_in_review"],
    [{ type: "age", status: "review" }, "check_not_in_review"], // only the checks of CHECKS_A_REVIEWER_SETTLES
  ] as const)("%j: %s", async (check, code) => {
    const { assertReviewerCanSettleCheck } = await import("@/lib/sessions/review-check");
    expect(await codeOf(() => assertReviewerCanSettleCheck(check?.type ?? "liveness", check))).toBe(code);
  });
});
