import { beforeAll, describe, expect, it } from "vitest";
import { api, createSession, createTenant, createWorkflow, keyHeader, type Tenant, bearer } from "../support/api";
import { useServerDatabase } from "../support/domain";

/**
 * The hosted flow's own server calls (docs/hosted-flow.md "Hosted-flow API"), authenticated
 * by the session token; here the location step end to end (spec 2.2 rules).
 */
useServerDatabase();

let t: Tenant;
let locationOnly: string;
const paris = { lat: 48.8566, lng: 2.3522 };

beforeAll(async () => {
  t = await createTenant();
  locationOnly = await createWorkflow(t, ["location"]);
});

async function decision(sessionId: string) {
  return (await api("GET", `/api/v2/session/${sessionId}/decision`, { headers: keyHeader(t) })).body.data;
}

describe("session token", () => {
  it("missing -> 401 token_missing; unknown -> 404 session_not_found; an API key is not a session token", async () => {
    const none = await api("GET", "/api/v2/flow");
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("token_missing");
    const unknown = await api("POST", "/api/v2/location", { headers: bearer("st_not_a_session"), json: paris });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("session_not_found");
    const apiKey = await api("GET", "/api/v2/flow", { headers: keyHeader(t) });
    expect(apiKey.status).toBe(401);
  });

  it("GET /api/v2/flow describes the steps without personal data", async () => {
    const s = await createSession(t, { workflow_id: locationOnly, redirect_url: "https://shop.example/back" });
    const res = await api("GET", "/api/v2/flow", { headers: { "X-Session-Token": s.session_token } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      session_id: s.session_id,
      status: "NOT_STARTED",
      app: { name: "Test app" },
      steps: [{ type: "location", status: "pending", attempts: 0 }],
      location: { expected_point: false },
      redirect_url: "https://shop.example/back",
    });
  });
});

describe("POST /api/v2/location (spec 2.2)", () => {
  it("rule 1: a blocked permission fails the check, and the session can still finish (DECLINED)", async () => {
    const s = await createSession(t, { workflow_id: locationOnly, metadata: { expected_lat: paris.lat, expected_lng: paris.lng, radius_m: 100 } });
    const res = await api("POST", "/api/v2/location", { headers: bearer(s.session_token), json: { error: "permission_denied" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: "location", status: "failed", error: { code: "location_unavailable", reason: "permission_denied" } });
    const done = await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });
    expect(done.body.data.status).toBe("DECLINED");
  });

  it("rule 2: inside the radius passes with match true; outside fails with match false", async () => {
    const inside = await createSession(t, { workflow_id: locationOnly, metadata: { expected_lat: paris.lat, expected_lng: paris.lng, radius_m: 1000 } });
    const a = await api("POST", "/api/v2/location", { headers: bearer(inside.session_token), json: { lat: 48.86, lng: 2.35, accuracy_m: 12 } });
    expect(a.body.data).toMatchObject({ status: "passed", data: { match: true, radius_m: 1000 } });
    expect(a.body.data.data.distance_m).toBeLessThan(1000);
    const outside = await createSession(t, { workflow_id: locationOnly, metadata: { expected_lat: paris.lat, expected_lng: paris.lng, radius_m: 1000 } });
    const b = await api("POST", "/api/v2/location", { headers: bearer(outside.session_token), json: { lat: 51.5074, lng: -0.1278 } });
    expect(b.body.data).toMatchObject({ status: "failed", data: { match: false } });
    const d = await decision(outside.session_id);
    expect(d.checks[0]).toMatchObject({ type: "location", status: "failed", data: { match: false, radius_m: 1000 } });
    expect(d.checks[0].data.distance_m).toBeGreaterThan(300_000);
  });

  it("rule 3: an expected point without radius passes with match null and the distance", async () => {
    const s = await createSession(t, { workflow_id: locationOnly, metadata: { expected_lat: paris.lat, expected_lng: paris.lng } });
    const res = await api("POST", "/api/v2/location", { headers: bearer(s.session_token), json: { lat: 51.5074, lng: -0.1278 } });
    expect(res.body.data).toMatchObject({ status: "passed", data: { match: null } });
    expect(res.body.data.data.distance_m).toBeGreaterThan(300_000);
  });

  it("rule 4: no expected point is capture only, passed with the coordinates; finishing approves", async () => {
    const s = await createSession(t, { workflow_id: locationOnly, redirect_url: "https://shop.example/back?x=1" });
    const res = await api("POST", "/api/v2/location", { headers: bearer(s.session_token), json: paris });
    expect(res.body.data).toEqual({ type: "location", status: "passed", data: { ...paris, match: null }, error: null });
    const done = await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });
    expect(done.body.data).toEqual({
      session_id: s.session_id,
      status: "APPROVED",
      redirect_url: `https://shop.example/back?x=1&status=approved&session_id=${s.session_id}`,
    });
    expect((await decision(s.session_id)).status).toBe("APPROVED");
    // Finishing again (a reload, a retry whose answer was lost) answers the same outcome.
    const twice = await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) });
    expect(twice.status).toBe(200);
    expect(twice.body.data).toEqual(done.body.data);
    // Closed: no more checks; reading still works.
    const again = await api("POST", "/api/v2/location", { headers: bearer(s.session_token), json: paris });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("session_closed");
    expect((await api("GET", "/api/v2/flow", { headers: bearer(s.session_token) })).body.data.status).toBe("APPROVED");
  });

  it("the workflow's default radius applies when the metadata gives none", async () => {
    const wf = await createWorkflow(t, ["location"], { settings: { location: { default_radius_m: 500 } } });
    const s = await createSession(t, { workflow_id: wf, metadata: { expected_lat: paris.lat, expected_lng: paris.lng } });
    const res = await api("POST", "/api/v2/location", { headers: bearer(s.session_token), json: { lat: 51.5074, lng: -0.1278 } });
    expect(res.body.data).toMatchObject({ status: "failed", data: { match: false, radius_m: 500 } });
  });

  it("rejects malformed fixes and sessions without a location step", async () => {
    const s = await createSession(t, { workflow_id: locationOnly });
    for (const json of [{ lat: 95, lng: 0 }, { lat: 10 }, { lat: "48", lng: "2" }, { lat: 1, lng: 1, extra: true }]) {
      const res = await api("POST", "/api/v2/location", { headers: bearer(s.session_token), json });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const wf = await createWorkflow(t, ["liveness"]);
    const other = await createSession(t, { workflow_id: wf });
    const res = await api("POST", "/api/v2/location", { headers: bearer(other.session_token), json: paris });
    expect(res.status).toBe(400);
  });

  it("an expired session is 410 session_expired", async () => {
    const { expireDueSessions } = await import("@/lib/sessions/expire-sessions");
    const s = await createSession(t, { workflow_id: locationOnly, ttl_seconds: 300 });
    await expireDueSessions({ appId: t.appId, at: new Date(Date.now() + 301_000) });
    const res = await api("POST", "/api/v2/location", { headers: bearer(s.session_token), json: paris });
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe("session_expired");
    expect((await api("POST", "/api/v2/flow/finish", { headers: bearer(s.session_token) })).status).toBe(410);
    // Reading still works, with the way back to the app once it has a redirect_url.
    const flow = await api("GET", "/api/v2/flow", { headers: bearer(s.session_token) });
    expect(flow.body.data).toMatchObject({ status: "EXPIRED", return_url: null });
  });
});
