import { describe, expect, it } from "vitest";
import { api, createTenant, shared } from "../support/api";
import { cliProcess as cli, runCli } from "../support/cli";
import { sql } from "../support/database";

const env = () => shared().env;
const uniqueEmail = () => `cli-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Exactly one JSON object on stdout: nothing else printed there. */
function expectSingleJson(stdout: string) {
  const lines = stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

async function expectFailure(args: string[], code: string, exitCode = 1) {
  const result = await runCli(args, env());
  expect(result.code).toBe(exitCode);
  expect(result.stdout).toBe("");
  const error = JSON.parse(result.stderr.trim().split("\n").at(-1)!);
  expect(error.error.code).toBe(code);
  return error.error;
}

describe("admin CLI", () => {
  it("developer:create prints { developer_id, organization_id, email } and grants the welcome credit once", async () => {
    const email = uniqueEmail();
    const result = await runCli(["developer:create", "--email", email.toUpperCase(), "--password", "a-long-password"], env());
    expect(result.code).toBe(0);
    const out = expectSingleJson(result.stdout);
    expect(out).toEqual({ developer_id: expect.any(String), organization_id: expect.any(String), email });

    const entries = await sql(
      env(),
      `SELECT l.kind, l.amount_cents, l.balance_after_cents, w.balance_cents, w.currency
         FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.organization_id = $1`,
      [out.organization_id],
    );
    expect(entries).toEqual([
      { kind: "welcome_credit", amount_cents: 10000, balance_after_cents: 10000, balance_cents: 10000, currency: "USD" },
    ]);
    const [dev] = await sql(env(), `SELECT password_hash FROM developers WHERE id = $1`, [out.developer_id]);
    expect(dev.password_hash).toMatch(/^scrypt\$/);
    expect(dev.password_hash).not.toContain("a-long-password");

    await expectFailure(["developer:create", "--email", email, "--password", "another-password"], "already_exists");
  });

  it("developer:create rejects bad input", async () => {
    const err = await expectFailure(["developer:create", "--email", "not-an-email", "--password", "short"], "invalid_request");
    expect(Object.keys(err.details.errors).sort()).toEqual(["developer.email", "developer.password"]);
    await expectFailure(["developer:create", "--email", uniqueEmail()], "usage", 2);
  });

  it("app:create prints credentials that work, stored only as hashes", async () => {
    const dev = await cli(["developer:create", "--email", uniqueEmail(), "--password", "a-long-password"], env());
    const result = await runCli(["app:create", "--org", dev.organization_id, "--name", "Shop", "--env", "test"], env());
    expect(result.code).toBe(0);
    const app = expectSingleJson(result.stdout);
    expect(app).toEqual({
      app_id: expect.any(String),
      environment: "test",
      api_key: expect.stringMatching(/^sk_test_/),
      client_id: expect.stringMatching(/^cli_[0-9a-f]{24}$/),
      client_secret: expect.stringMatching(/^cs_test_/),
    });
    const rows = await sql(
      env(),
      `SELECT k.key_hash, k.prefix, a.client_secret_hash FROM api_keys k JOIN apps a ON a.id = k.app_id WHERE a.id = $1`,
      [app.app_id],
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(app.api_key);
    expect(JSON.stringify(rows)).not.toContain(app.client_secret);
    expect(app.api_key.startsWith(rows[0].prefix)).toBe(true);

    expect((await api("GET", "/api/v2/workflows", { headers: { "X-API-Key": app.api_key } })).status).toBe(200);
    const sdk = await api("GET", "/api/sdk/members", {
      headers: { "X-Client-Id": app.client_id, "X-Client-Secret": app.client_secret },
    });
    expect(sdk.body.data.organization.id).toBe(dev.organization_id);

    await expectFailure(["app:create", "--org", dev.organization_id, "--name", "X", "--env", "staging"], "invalid_request");
    await expectFailure(["app:create", "--org", "00000000-0000-0000-0000-000000000000", "--name", "X", "--env", "test"], "not_found");
  });

  it("app:create-key issues another working key; app:revoke-key revokes one", async () => {
    const t = await createTenant();
    const extra = await cli(["app:create-key", "--app", t.appId, "--name", "ci"], env());
    expect(extra).toEqual({ api_key_id: expect.any(String), api_key: expect.stringMatching(/^sk_test_/), prefix: extra.api_key.slice(0, 12) });
    const ok = (key: string) => api("GET", "/api/v2/workflows", { headers: { "X-API-Key": key } }).then((r) => r.status);
    expect(await ok(extra.api_key)).toBe(200);
    const revoked = await cli(["app:revoke-key", "--key", extra.api_key], env());
    expect(revoked).toMatchObject({ api_key_id: extra.api_key_id, app_id: t.appId, revoked: true });
    expect(await ok(extra.api_key)).toBe(401);
    expect(await ok(t.apiKey)).toBe(200);
    await expectFailure(["app:revoke-key", "--key", "sk_test_unknown"], "not_found");
  });

  it("app:redirect-uri adds exact URIs; app:scopes sets enabled scopes", async () => {
    const t = await createTenant();
    const added = await cli(["app:redirect-uri", "--app", t.appId, "--uri", "https://shop.example/callback"], env());
    expect(added).toMatchObject({ client_id: t.clientId, redirect_uris: ["https://shop.example/callback"], scopes: ["openid"] });
    const local = await cli(["app:redirect-uri", "--app", t.appId, "--uri", "http://localhost:5173/cb"], env());
    expect(local.redirect_uris).toEqual(["https://shop.example/callback", "http://localhost:5173/cb"]);
    const again = await cli(["app:redirect-uri", "--app", t.appId, "--uri", "http://localhost:5173/cb"], env());
    expect(again.redirect_uris).toHaveLength(2);
    await expectFailure(["app:redirect-uri", "--app", t.appId, "--uri", "http://shop.example/cb"], "invalid_request");
    await expectFailure(["app:redirect-uri", "--app", t.appId, "--uri", "https://shop.example/cb#frag"], "invalid_request");

    const scopes = await cli(["app:scopes", "--app", t.appId, "--scopes", "openid profile verifications"], env());
    expect(scopes.scopes).toEqual(["openid", "profile", "verifications"]);
    await expectFailure(["app:scopes", "--app", t.appId, "--scopes", "profile"], "invalid_request");
    await expectFailure(["app:scopes", "--app", t.appId, "--scopes", "openid admin"], "invalid_request");
  });

  it("webhook:create prints a signing secret stored encrypted, approved only when asked", async () => {
    const t = await createTenant();
    const hook = await cli(["webhook:create", "--app", t.appId, "--url", "https://hooks.example/svc", "--approve"], env());
    expect(hook).toEqual({
      webhook_id: expect.any(String),
      url: "https://hooks.example/svc",
      secret: expect.stringMatching(/^whsec_/),
      approved: true,
      active: true,
    });
    const [row] = await sql(env(), `SELECT secret_encrypted FROM webhook_endpoints WHERE id = $1`, [hook.webhook_id]);
    expect(row.secret_encrypted).toMatch(/^v2\.[0-9a-f]{8}\./);
    expect(row.secret_encrypted).not.toContain(hook.secret);

    const unapproved = await cli(["webhook:create", "--app", t.appId, "--url", "http://localhost:4000/hook"], env());
    expect(unapproved.approved).toBe(false);
    const approved = await cli(["webhook:approve", "--webhook", unapproved.webhook_id], env());
    expect(approved).toEqual({ webhook_id: unapproved.webhook_id, url: "http://localhost:4000/hook", approved: true, active: true });
    await expectFailure(["webhook:approve", "--webhook", "7d0c1f1e-94a8-4a43-9b44-0c6a8d1d5b10"], "not_found");

    const prod = await createTenant(env(), "production");
    await expectFailure(["webhook:create", "--app", prod.appId, "--url", "http://localhost:4000/hook"], "invalid_request");
  });

  it("wallet:credit adds to the balance with a ledger row", async () => {
    const t = await createTenant();
    const out = await cli(["wallet:credit", "--org", t.organizationId, "--amount", "12.50"], env());
    expect(out).toEqual({ organization_id: t.organizationId, balance: 112.5 });
    const rows = await sql(
      env(),
      `SELECT l.kind, l.amount_cents FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id
        WHERE w.organization_id = $1 ORDER BY l.created_at`,
      [t.organizationId],
    );
    expect(rows).toEqual([
      { kind: "welcome_credit", amount_cents: 10000 },
      { kind: "manual_credit", amount_cents: 1250 },
    ]);
    for (const amount of ["-5", "0", "1.234", "abc"]) {
      await expectFailure(["wallet:credit", "--org", t.organizationId, "--amount", amount], "usage", 2);
    }
    await expectFailure(["wallet:credit", "--org", "00000000-0000-0000-0000-000000000000", "--amount", "1"], "not_found");
  });

  it("demo creates the demo account once and prints working credentials", async () => {
    const first = await cli(["demo"], env());
    const second = await cli(["demo"], env());
    expect(second.developer_id).toBe(first.developer_id);
    expect(second.app_id).toBe(first.app_id);
    expect(first).toMatchObject({
      email: "demo@example.com",
      environment: "test",
      scopes: ["openid", "profile", "verifications", "zkp", "doctor_license"],
      redirect_uris: [expect.stringMatching(/^http:\/\/localhost:\d+\//)],
    });
    const res = await api("GET", "/api/v2/workflows", { headers: { "X-API-Key": second.api_key } });
    expect(res.status).toBe(200);
    const sdk = await api("GET", "/api/sdk/members", {
      headers: { "X-Client-Id": second.client_id, "X-Client-Secret": second.client_secret },
    });
    expect(sdk.status).toBe(200);
  });

  it("an unknown command is a usage error", async () => {
    await expectFailure(["nope"], "usage", 2);
  });
});
