import { describe, expect, it } from "vitest";
import { canApproveManually, decide, declinedWhateverFollows } from "@/lib/decisions/decide";
import { isFinalFailure } from "@/lib/checks/stop-at-decisive-failure";
import { faceMatchStatus } from "@/lib/checks/face-match-verdict";
import { haversineMeters, locationVerdict } from "@/lib/checks/location-verdict";
import { resolveSettings } from "@/lib/workflows/settings";
import type { CheckStatus } from "@/lib/sessions/statuses";

const c = (type: string, status: CheckStatus) => ({ type, status });
const KYC = ["id_verification", "liveness", "face_match"];

describe("decision engine", () => {
  it("all passed -> APPROVED", () => {
    expect(decide(KYC, KYC.map((t) => c(t, "passed")))).toBe("APPROVED");
  });
  it("one failed -> DECLINED, even beside a borderline result", () => {
    expect(decide(KYC, [c("id_verification", "passed"), c("liveness", "failed"), c("face_match", "review")])).toBe("DECLINED");
  });
  it("a borderline result and no failure -> IN_REVIEW", () => {
    expect(decide(KYC, [c("id_verification", "passed"), c("liveness", "passed"), c("face_match", "review")])).toBe("IN_REVIEW");
  });

  it("without review (account recovery) a borderline result declines; all passed still approves", () => {
    const noReview = { reviewable: false };
    expect(decide(KYC, [c("id_verification", "review"), c("liveness", "passed"), c("face_match", "passed")], noReview)).toBe("DECLINED");
    expect(decide(KYC, [c("id_verification", "passed"), c("liveness", "passed"), c("face_match", "passed")], noReview)).toBe("APPROVED");
  });
  it("a feature that never ran counts as a failure", () => {
    expect(decide(KYC, [c("id_verification", "passed"), c("liveness", "passed")])).toBe("DECLINED");
    expect(decide(KYC, [...KYC.map((t) => c(t, "passed")), c("location", "failed")])).toBe("APPROVED");
  });
  it("manual approval needs passed id_verification, liveness and face_match", () => {
    expect(canApproveManually(KYC.map((t) => c(t, "passed")))).toBe(true);
    expect(canApproveManually([c("id_verification", "passed"), c("liveness", "passed"), c("face_match", "review")])).toBe(false);
    expect(canApproveManually([c("liveness", "passed"), c("face_match", "passed")])).toBe(false);
  });
});

describe("face match verdict", () => {
  const settings = { threshold: 0.52, review_margin: 0.05 };
  it.each([
    [0.9, "passed"],
    [0.52, "passed"],
    [0.5, "review"],
    [0.47, "review"],
    [0.469, "failed"],
    [0.1, "failed"],
  ] as const)("similarity %s -> %s", (similarity, status) => {
    expect(faceMatchStatus(similarity, settings)).toBe(status);
  });
});

describe("location verdict (spec 2.2)", () => {
  const paris = { lat: 48.8566, lng: 2.3522 };
  const london = { lat: 51.5074, lng: -0.1278 };
  it("measures great-circle distance", () => {
    expect(haversineMeters(paris, london) / 1000).toBeCloseTo(343.5, 0);
    expect(haversineMeters(paris, paris)).toBe(0);
  });
  it("rule 1: no fix -> failed", () => {
    expect(locationVerdict(null, { expected_lat: 1, expected_lng: 1, radius_m: 10 }).status).toBe("failed");
    expect(locationVerdict({ lat: Number.NaN, lng: 2 }, {}).status).toBe("failed");
  });
  it("rule 2: point and radius -> verdict with match and distance", () => {
    const inside = locationVerdict({ lat: 48.857, lng: 2.353 }, { expected_lat: paris.lat, expected_lng: paris.lng, radius_m: 500 });
    expect(inside).toMatchObject({ status: "passed", data: { match: true, radius_m: 500 } });
    expect(inside.data.distance_m).toBeLessThan(500);
    const outside = locationVerdict(london, { expected_lat: paris.lat, expected_lng: paris.lng, radius_m: 500 });
    expect(outside).toMatchObject({ status: "failed", data: { match: false } });
    expect(outside.data.distance_m).toBeGreaterThan(300_000);
  });
  it("rule 3: point without radius -> passed, match null, distance only", () => {
    const v = locationVerdict(london, { expected_lat: paris.lat, expected_lng: paris.lng });
    expect(v.status).toBe("passed");
    expect(v.data.match).toBeNull();
    expect(v.data.distance_m).toBeGreaterThan(300_000);
  });
  it("rule 4: no expected point -> capture only, passed with coordinates", () => {
    expect(locationVerdict(london, {})).toEqual({ status: "passed", data: { ...london, match: null }, error: null });
  });
});

describe("workflow settings", () => {
  it("fills every default for the workflow's features", () => {
    const settings = resolveSettings(["liveness", "age", "id_verification"], {});
    expect(settings).toEqual({
      session: { ttl_seconds: 86400, reuse_proofs: true },
      liveness: { actions: ["turn_left", "turn_right", "blink", "look_up", "look_down", "smile"], actions_per_challenge: 3, frames: 7, max_attempts: 3 },
      age: { minimum_age: 18 },
      id_verification: { allowed_documents: ["passport", "id_card", "driving_licence"], min_read_confidence: 0.8 },
    });
  });
  it("rejects bad values, unknown keys and settings of absent features with a field map", () => {
    try {
      resolveSettings(["liveness"], { liveness: { frames: 9, wobble: true }, face_match: {}, nonsense: 1 });
      expect.unreachable();
    } catch (err) {
      const errors = (err as { data: { errors: Record<string, string[]> } }).data.errors;
      expect(Object.keys(errors).sort()).toEqual([
        "settings.face_match",
        "settings.liveness.frames",
        "settings.liveness.wobble",
        "settings.nonsense",
      ]);
    }
  });
});

describe("a check that decides the session (issue 33 item 21)", () => {
  const WF = ["id_verification", "age", "liveness", "face_match"];
  const finals = (checks: Array<{ type: string; status: CheckStatus }>) => checks.filter(isFinalFailure);
  it("a failed document or age declines whatever follows", () => {
    expect(declinedWhateverFollows(WF, finals([c("id_verification", "passed"), c("age", "failed")]))).toBe(true);
    expect(declinedWhateverFollows(WF, finals([c("id_verification", "failed")]))).toBe(true);
  });
  it("review, passes and failures the person can still retry do not", () => {
    expect(declinedWhateverFollows(WF, finals([c("id_verification", "review"), c("age", "review")]))).toBe(false);
    expect(declinedWhateverFollows(WF, finals([c("id_verification", "passed"), c("age", "passed")]))).toBe(false);
    expect(declinedWhateverFollows(WF, finals([c("id_verification", "passed"), c("liveness", "failed"), c("face_match", "failed")]))).toBe(false);
    expect(declinedWhateverFollows(WF, [])).toBe(false);
  });
});
