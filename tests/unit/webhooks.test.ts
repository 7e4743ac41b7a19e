import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { handleWebhookRequest, MemoryDedupStore, verifyWebhook, WebhookVerificationError } from "@/lib/webhooks/receiver";
import { isPrivateAddress } from "@/lib/webhooks/safe-address";
import { BlockedAddressError, postWebhook } from "@/lib/webhooks/post-webhook";
import { webhookHeaders } from "@/lib/webhooks/signing";

const secret = "whsec_test_secret";
const event = { event_id: "evt_1", type: "verification.approved", session_id: "s", status: "APPROVED", vendor_data: null, decision: "approved", occurred_at: "2026-01-01T00:00:00.000Z" };
const body = JSON.stringify(event);
const now = 1_800_000_000;

describe("receiver helper", () => {
  it("accepts a correctly signed delivery", () => {
    expect(verifyWebhook({ rawBody: body, headers: webhookHeaders(secret, "evt_1", body, now), secret, nowSeconds: now })).toEqual(event);
  });
  it.each([
    ["a tampered body", () => ({ rawBody: body.replace("APPROVED", "DECLINED"), headers: webhookHeaders(secret, "evt_1", body, now) })],
    ["another secret", () => ({ rawBody: body, headers: webhookHeaders("whsec_other", "evt_1", body, now) })],
    ["a timestamp 301 s old", () => ({ rawBody: body, headers: webhookHeaders(secret, "evt_1", body, now - 301) })],
    ["a timestamp 301 s ahead", () => ({ rawBody: body, headers: webhookHeaders(secret, "evt_1", body, now + 301) })],
    ["a header event id that is not the body's", () => ({ rawBody: body, headers: webhookHeaders(secret, "evt_2", body, now) })],
    ["no signature", () => ({ rawBody: body, headers: { "x-svc-timestamp": String(now), "x-svc-event-id": "evt_1" } })],
  ])("rejects %s", (_, make) => {
    const input = make();
    expect(() => verifyWebhook({ ...input, secret, nowSeconds: now })).toThrow(WebhookVerificationError);
  });
  it("accepts a timestamp 300 s old", () => {
    expect(() => verifyWebhook({ rawBody: body, headers: webhookHeaders(secret, "evt_1", body, now - 300), secret, nowSeconds: now })).not.toThrow();
  });
  it("the Web handler answers 400 to a bad signature and processes an event id once", async () => {
    const seen: string[] = [];
    const options = { secret, store: new MemoryDedupStore(), onEvent: (e: { event_id: string }) => void seen.push(e.event_id) };
    const ts = Math.floor(Date.now() / 1000);
    const make = (s: string) => new Request("http://x/hook", { method: "POST", body, headers: webhookHeaders(s, "evt_1", body, ts) });
    expect((await handleWebhookRequest(make("whsec_wrong"), options)).status).toBe(400);
    const first = await handleWebhookRequest(make(secret), options);
    const second = await handleWebhookRequest(make(secret), options);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    expect(seen).toEqual(["evt_1"]);
  });
});

describe("SSRF guard for production webhooks", () => {
  it.each(["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fd00::1", "fe80::1", "::ffff:127.0.0.1"])(
    "%s is private",
    (ip) => expect(isPrivateAddress(ip)).toBe(true),
  );
  it.each(["93.184.216.34", "8.8.8.8", "2606:4700::1111"])("%s is public", (ip) => expect(isPrivateAddress(ip)).toBe(false));

  it("refuses to connect a production delivery to a name resolving to loopback", async () => {
    const server = http.createServer((_, res) => res.end("ok"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      await expect(postWebhook(`https://localhost:${port}/h`, {}, "{}", { timeoutMs: 2000, allowPrivate: false })).rejects.toBeInstanceOf(BlockedAddressError);
      await expect(postWebhook(`http://127.0.0.1:${port}/h`, {}, "{}", { timeoutMs: 2000, allowPrivate: false })).rejects.toBeInstanceOf(BlockedAddressError);
      // A test app may deliver to localhost.
      await expect(postWebhook(`http://127.0.0.1:${port}/h`, {}, "{}", { timeoutMs: 2000, allowPrivate: true })).resolves.toMatchObject({ status: 200 });
    } finally {
      server.close();
    }
  });

  it("times out a receiver that does not answer", async () => {
    const server = http.createServer(() => {});
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      await expect(postWebhook(`http://127.0.0.1:${port}/h`, {}, "{}", { timeoutMs: 300, allowPrivate: true })).rejects.toThrow(/timed out/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
