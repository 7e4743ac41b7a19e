import { randomBytes } from "node:crypto";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, checkOf, postSession, useDatabaseOf } from "../support/api";
import { runScript } from "../support/cli";
import { createTestDatabase, sql, type TestDatabase } from "../support/database";
import { licence, PERFORMS, postBurst, postDocument } from "../support/kyc";
import { fixture, imageForm } from "../support/images";
import { authorize, exchange, provider, useOidcProvider } from "../support/oidc-flow";
import { signUpDeveloper } from "../support/portal";
import { TestReceiver } from "../support/receiver";

/**
 * Secrets and personal data at rest (README "Secrets and personal data at
 * rest"): a production server of its own, on a database of its own, runs
 * what a real install sees (a developer signing up and resetting a password
 * in the portal, a production and a test app with their API keys and client
 * secrets, a webhook and its deliveries, an OpenID Connect sign-in with an
 * emailed one-time code and a refresh, a member invited by the organization
 * API, a full KYC session on person A's fixtures bound to that account, a
 * location check, a face in the 1:N gallery). Every secret and personal value the run handled is
 * collected; then every row of every table is dumped as text, and the
 * server's log too, and none of them may appear in clear.
 */
const own: Record<string, string> = {};
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("secrets");
  Object.assign(own, database.env, {
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    JOB_WORKER: "on", // this server mails the invitations
    VISION_PRELOAD: "on",
    WEBHOOK_POLL_MS: "100",
  });
});
afterAll(async () => {
  const { disconnectDb } = await import("@/lib/db/client");
  await disconnectDb();
  await database?.drop();
});
useOidcProvider(own);

const receiver = new TestReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const PROD_REDIRECT = "https://rp.example/callback";
/** A distinctive fix (Sacramento), six decimals as a phone gives them. */
const FIX = { lat: 38.581572, lng: -121.494731 };

type Secret = { label: string; forms: string[] };
const secrets: Secret[] = [];
/** A value that must never be stored or logged as it is. */
const keep = (label: string, value: string | undefined | null) => {
  expect(value, label).toBeTruthy();
  secrets.push({ label, forms: [value!] });
};
/**
 * Image bytes: a 63-byte slice from the middle (aligned to 3, so its base64
 * is a substring of the whole file's), as hex (bytea as row_to_json prints
 * it), base64 and base64url.
 */
const keepImage = (label: string, bytes: Buffer) => {
  const at = Math.floor(bytes.length / 6) * 3;
  const slice = bytes.subarray(at, at + 63);
  secrets.push({ label, forms: [slice.toString("hex"), slice.toString("base64"), slice.toString("base64url"), slice.toString("latin1")] });
};

/** Where a form of a secret occurs: whole tokens only for short values (a 6-digit code inside a longer number is not it). */
function occurrences(text: string, secret: Secret): number {
  let n = 0;
  for (const form of secret.forms) {
    if (form.length >= 16) n += text.split(form).length - 1;
    else n += (text.match(new RegExp(`(?<![0-9A-Za-z])${form.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}(?![0-9A-Za-z])`, "g")) ?? []).length;
  }
  return n;
}

/** Every row of every table (all schemas: the job queue's too), as `schema.table: <row as JSON>` lines. */
async function dumpDatabase(): Promise<string[]> {
  const tables = await sql<{ schema: string; name: string }>(
    own,
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
  );
  const lines: string[] = [];
  for (const t of tables) {
    const rows = await sql<{ row: string }>(own, `SELECT row_to_json(t)::text AS row FROM "${t.schema}"."${t.name}" t`);
    for (const r of rows) lines.push(`${t.schema}.${t.name}: ${r.row}`);
  }
  return lines;
}

describe("secrets and personal data at rest", () => {
  it("a full run leaves no secret, token, code, document field, image or location in clear in the database or the log", async () => {
    const base = provider().op.url;

    // ---- The developer portal: sign-up, apps, keys, OIDC settings, a webhook.
    const dev = await signUpDeveloper(base, `pw-${randomBytes(9).toString("base64url")}`, provider().smtp);
    keep("developer password", dev.password);
    keep("portal session cookie", dev.cookie.match(/next-auth\.session-token=([^;]+)/)?.[1]);
    const prodApp = (await dev.call("POST", "/api/portal/apps", { json: { name: "Shop", environment: "production" } })).body.data;
    const testApp = (await dev.call("POST", "/api/portal/apps", { json: { name: "Shop sandbox", environment: "test" } })).body.data;
    for (const app of [prodApp, testApp]) {
      keep(`${app.environment} API key`, app.api_key);
      keep(`${app.environment} client secret`, app.client_secret);
    }
    const extraKey = await dev.call("POST", `/api/portal/apps/${prodApp.app_id}/keys`, { json: { name: "backend" } });
    expect(extraKey.status).toBe(201);
    keep("second API key", extraKey.body.data.api_key);
    expect((await dev.call("POST", `/api/portal/apps/${prodApp.app_id}/oidc/redirect-uris`, { json: { uri: PROD_REDIRECT } })).status).toBe(200);
    expect((await dev.call("PATCH", `/api/portal/apps/${prodApp.app_id}/oidc`, { json: { scopes: ["openid", "profile", "verifications"] } })).status).toBe(200);
    const hook = await dev.call("POST", `/api/portal/apps/${testApp.app_id}/webhooks`, { json: { url: receiver.url } });
    expect(hook.status).toBe(201);
    keep("webhook signing secret", hook.body.data.secret);
    receiver.secret = hook.body.data.secret;
    expect((await dev.call("POST", `/api/portal/apps/${testApp.app_id}/webhooks/${hook.body.data.webhook_id}/approve`)).status).toBe(200);

    // ---- A password reset by its emailed single-use link.
    expect((await api("POST", "/api/portal/password-reset", { base, json: { email: dev.email } , headers: { origin: base } })).status).toBe(202);
    const resetMail = (await provider().smtp.next(dev.email)).raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const resetToken = decodeURIComponent(resetMail.match(/\/reset-password#token=([A-Za-z0-9_%-]+)/)![1]!);
    keep("password reset token", resetToken);
    const newPassword = `pw-${randomBytes(9).toString("base64url")}`;
    expect((await api("POST", "/api/portal/password-reset/confirm", { base, json: { token: resetToken, password: newPassword } , headers: { origin: base } })).status).toBe(200);
    keep("new developer password", newPassword);

    // ---- OpenID Connect: emailed one-time code, consent, code exchange, refresh, userinfo.
    const config = await client.discovery(new URL(base), prodApp.client_id, prodApp.client_secret, undefined, { execute: [client.allowInsecureRequests] });
    const smtpSeen = provider().smtp.messages.length;
    const signIn = await authorize({ cfg: config, redirectUri: PROD_REDIRECT });
    const codeMail = provider().smtp.messages.slice(smtpSeen).find((m) => m.to.includes(signIn.email.toLowerCase()));
    keep("one-time sign-in code", codeMail?.raw.match(/^Subject: (\d{6}) is your sign-in code/m)?.[1]);
    keep("authorization code", signIn.callback.searchParams.get("code"));
    keep("provider sign-in session cookie", signIn.session?.split("=")[1]);
    const tokens = await exchange(signIn, config);
    keep("access token", tokens.access_token);
    keep("refresh token", tokens.refresh_token);
    keep("ID token", tokens.id_token);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    keep("refreshed access token", refreshed.access_token);
    keep("rotated refresh token", refreshed.refresh_token);
    const svcId = tokens.claims()!.sub;
    expect((await client.fetchUserInfo(config, refreshed.access_token, svcId)).sub).toBe(svcId);

    // ---- The organization API: a member invited by email (the activation link is mailed by the job worker).
    const member = `member-${Date.now()}@example.com`;
    const added = await api("POST", "/api/sdk/members", {
      base,
      headers: { "X-Client-Id": prodApp.client_id, "X-Client-Secret": prodApp.client_secret },
      json: { members: [{ email: member, first_name: "Robin", last_name: "Member" }], invite: "email" },
    });
    expect(added.status).toBe(201);
    const invitation = (await provider().smtp.next(member, 60_000)).raw.replace(/=\r?\n/g, "");
    keep("member activation token", invitation.match(/\/activate\/(act_[A-Za-z0-9_-]{43})/)?.[1]);

    // ---- A full KYC session of the production app, bound to the account: document, liveness burst, face match, location.
    const prodKey = { "X-API-Key": prodApp.api_key };
    const kyc = await api("POST", "/api/v2/workflows", {
      base,
      headers: prodKey,
      json: { name: "kyc", features: ["id_verification", "liveness", "face_match", "age", "location"], settings: { liveness: { actions: ["turn_left", "turn_right"], actions_per_challenge: 2 } } },
    });
    expect(kyc.status).toBe(201);
    const created = await postSession({ apiKey: prodApp.api_key }, { workflow_id: kyc.body.data.workflow.id, svc_access_token: refreshed.access_token }, {}, base);
    expect(created.status).toBe(201);
    const s = created.body.data as { session_id: string; session_token: string };
    keep("KYC session token", s.session_token);
    const doc = await postDocument(s.session_token, "driving_licence", licence("a"), base);
    expect(checkOf(doc, "id_verification").status).toBe("passed");
    const live = await postBurst(s.session_token, "as_asked", undefined, base);
    expect(checkOf(live, "face_match").status).toBe("passed");
    const located = await api("POST", "/api/v2/location", { base, headers: bearer(s.session_token), json: FIX });
    expect(located.body.data).toMatchObject({ status: "passed", data: { lat: FIX.lat, lng: FIX.lng, match: null } });
    expect((await api("POST", "/api/v2/flow/finish", { base, headers: bearer(s.session_token) })).body.data.status).toBe("APPROVED");
    // The company still reads the coordinates it asked for (spec 2.2 rule 4), from the sealed record.
    const decision = await api("GET", `/api/v2/session/${s.session_id}/decision`, { base, headers: prodKey });
    expect(checkOf(decision, "location")).toMatchObject({ status: "passed", data: { lat: FIX.lat, lng: FIX.lng, match: null } });
    expect(decision.body.data.identity).toMatchObject({ svc_id: svcId, full_name: expect.stringMatching(/jordan/i) });
    const a = licence("a");
    keepImage("licence front", a.front);
    keepImage("licence back", a.back);
    for (const name of Object.values(PERFORMS)) [1, 2, 3, 4, 5].forEach((i) => keepImage(`${name} frame ${i}`, fixture("faces", name, `${i}.jpg`)));
    // Person A's licence: names, date of birth in the formats it is printed and encoded (ISO, AAMVA MMDDCCYY, compact), number.
    for (const [label, value] of [["first name", "JORDAN"], ["first name", "Jordan"], ["last name", "SAMPLE"], ["date of birth", "1990-04-12"], ["date of birth", "04121990"], ["date of birth", "19900412"], ["document number", "S4829105"]]) {
      keep(label!, value);
    }
    keep("latitude", String(FIX.lat));
    keep("longitude", String(FIX.lng));

    // ---- A test app's session, created with an idempotency key (its stored answer holds the token), ends; its webhook is delivered.
    const testKey = { "X-API-Key": testApp.api_key };
    const locOnly = await api("POST", "/api/v2/workflows", { base, headers: testKey, json: { name: "where", features: ["location"] } });
    const sandbox = await postSession({ apiKey: testApp.api_key }, { workflow_id: locOnly.body.data.workflow.id, vendor_data: "user-42" }, { "Idempotency-Key": `idem-${Date.now()}` }, base);
    expect(sandbox.status).toBe(201);
    keep("test session token", sandbox.body.data.session_token);
    await api("POST", "/api/v2/location", { base, headers: bearer(sandbox.body.data.session_token), json: { lat: FIX.lat, lng: FIX.lng, accuracy_m: 12 } });
    expect((await api("POST", "/api/v2/flow/finish", { base, headers: bearer(sandbox.body.data.session_token) })).body.data.status).toBe("APPROVED");
    await receiver.waitFor((r) => r.processed.some((e) => e.session_id === sandbox.body.data.session_id));

    // ---- An install upgraded from when fixes were stored in clear: the migration runner seals them, the decision is unchanged.
    const [stored] = await sql<{ id: string; data: Record<string, unknown> }>(own, "SELECT id, data FROM check_results WHERE session_id = $1 AND type = 'location'", [sandbox.body.data.session_id]);
    expect(Object.keys(stored!.data).sort()).toEqual(["fix_sealed", "match"]);
    await sql(own, "UPDATE check_results SET data = $2 WHERE id = $1", [stored!.id, JSON.stringify({ lat: FIX.lat, lng: FIX.lng, match: null, accuracy_m: 12 })]);
    // As an operator upgrades: `npm run db:migrate` (or a server start) runs the data migrations.
    const migrated = await runScript("bin/migrate.ts", [], own);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stderr).toContain("[db] sealed the coordinates of 1 location checks");
    useDatabaseOf(own);
    const [resealed] = await sql<{ data: Record<string, unknown> }>(own, "SELECT data FROM check_results WHERE id = $1", [stored!.id]);
    expect(Object.keys(resealed!.data).sort()).toEqual(["fix_sealed", "match"]);
    const sandboxDecision = await api("GET", `/api/v2/session/${sandbox.body.data.session_id}/decision`, { base, headers: testKey });
    expect(checkOf(sandboxDecision, "location")).toEqual({ type: "location", status: "passed", data: { lat: FIX.lat, lng: FIX.lng, accuracy_m: 12, match: null }, error: null });

    // ---- A face in the production app's 1:N gallery, enrolled as the face_uniqueness step enrolls it, from a known template:
    // neither the template (its float32 bytes, or its values as PostgreSQL prints a real[]) nor its search code may be in clear.
    const { enrollFace } = await import("@/lib/faces/gallery");
    const { searchCode } = await import("@/lib/faces/search-code");
    const { normalise } = await import("@/lib/faces/templates");
    const template = normalise(Array.from({ length: 1024 }, (_, i) => Math.sin(7 * i + 1)));
    const faceId = await enrollFace(prodApp.app_id, s.session_id, { embedding: template, model: "known", source_sha256: "" });
    const enrolled = normalise(template); // what enrollFace stores, to the last bit
    const floats = Buffer.alloc(4096);
    enrolled.forEach((v, i) => floats.writeFloatLE(v, i * 4));
    keepImage("face template (float32 bytes)", floats);
    keepImage("face search code", searchCode(enrolled));
    const [printed] = await sql<{ text: string }>(own, "SELECT ($1::float8[])::real[]::text AS text", [enrolled]);
    keep("face template (as real[] text)", printed!.text.slice(1, -1).split(",").slice(0, 4).join(","));

    // ---- The dump: nothing above in clear, in any table or in the log.
    const rows = await dumpDatabase();
    const dump = rows.join("\n");
    // The dump is real: what is kept in clear by design is in it (ids, the sign-in address: README).
    expect(dump).toContain(s.session_id);
    expect(rows.some((r) => r.startsWith("public.face_identities: ") && r.includes(faceId))).toBe(true);
    expect(dump).toContain(signIn.email.toLowerCase());
    expect(rows.some((r) => r.startsWith("public.account_proofs: "))).toBe(true);
    const inDatabase = secrets.flatMap((secret) =>
      occurrences(dump, secret) ? [`${secret.label} in ${[...new Set(rows.filter((r) => occurrences(r, secret)).map((r) => r.split(":")[0]))].join(", ")}`] : [],
    );
    expect(inDatabase).toEqual([]);
    const log = provider().op.output();
    expect(log).toContain("Ready on");
    const inLog = secrets.flatMap((secret) => (occurrences(log, secret) ? [secret.label] : []));
    expect(inLog).toEqual([]);

    // The known face leaves the gallery (the retention test below counts the gallery's enrollments).
    const { unlinkFace } = await import("@/lib/faces/gallery");
    expect(await unlinkFace(prodApp.app_id, faceId)).toEqual({ deleted: true });
  });

  it("face templates stay in the gallery only while enrolled: FACE_GALLERY_RETENTION_DAYS unlinks them and deletes the face", async () => {
    const base = provider().op.url;
    const dev = await signUpDeveloper(base, undefined, provider().smtp);
    const sandboxApp = (await dev.call("POST", "/api/portal/apps", { json: { name: "Gallery", environment: "test" } })).body.data;
    const key = { "X-API-Key": sandboxApp.api_key };
    const wf = await api("POST", "/api/v2/workflows", { base, headers: key, json: { name: "unique", features: ["face_uniqueness"] } });
    const selfie = async () => {
      const s = (await postSession({ apiKey: sandboxApp.api_key }, { workflow_id: wf.body.data.workflow.id }, {}, base)).body.data;
      const res = await api("POST", "/api/v2/face-uniqueness", { base, headers: bearer(s.session_token), form: imageForm({ image: fixture("faces", "a-still", "1.jpg") }) });
      return { token: s.session_token as string, check: checkOf(res, "face_uniqueness") };
    };
    const first = await selfie();
    expect(first.check).toMatchObject({ status: "passed", data: { duplicate: false, enrolled: true } });
    expect((await api("POST", "/api/v2/flow/finish", { base, headers: bearer(first.token) })).body.data.status).toBe("APPROVED");
    const faceId = first.check.data.svc_uuid as string;
    // The template and its search code are kept sealed (the key's id in each), for as long as the enrollment lasts.
    const stored = async () =>
      (await sql<{ template: Buffer; code: Buffer }>(own, "SELECT template_sealed AS template, search_code AS code FROM face_identities WHERE id = $1", [faceId]))[0];
    const sealedFace = await stored();
    expect(sealedFace!.template.subarray(0, 3).toString("latin1")).toBe("sv\x02");
    expect(sealedFace!.template.length).toBe(4096 + 35); // 1,024 float32, sealed (header, IV, tag)
    expect(sealedFace!.code.subarray(0, 3).toString("latin1")).toBe("sv\x02");
    expect(sealedFace!.code.length).toBe(128 + 35);

    useDatabaseOf(own);
    const { purgeExpiredEnrollments } = await import("@/lib/faces/gallery");
    expect(await purgeExpiredEnrollments(new Date(), undefined)).toBe(0); // no retention configured: until unlinked
    expect(await purgeExpiredEnrollments(new Date(Date.now() + 29 * 86_400_000), 30)).toBe(0); // within 30 days: kept
    expect((await selfie()).check).toMatchObject({ status: "failed", data: { duplicate: true, svc_uuid: faceId } });

    expect(await purgeExpiredEnrollments(new Date(Date.now() + 31 * 86_400_000), 30)).toBe(1);
    expect(await stored()).toBeUndefined(); // template and search code gone
    expect((await selfie()).check).toMatchObject({ status: "passed", data: { duplicate: false } });
  });
});
