import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { handleWebhookRequest, MemoryDedupStore, verifyWebhook, WebhookVerificationError } from "@/sdk/src/webhooks";
import { ConfigError, parseEnv } from "@/lib/config/env";
import { formatNetwork, isAllowedDestination, isPublicAddress, parseNetworkList } from "@/lib/net/safe-address";
import { attemptErrorText, BlockedAddressError, guardedLookup, postWebhook } from "@/lib/webhooks/post-webhook";
import { recoveryEventType, sessionEventType } from "@/lib/webhooks/event-types";
import { LEASE_MARGIN_MS, leaseMs } from "@/lib/webhooks/schedule";
import { webhookHeaders } from "@/lib/webhooks/signing";

const secret = "whsec_test_secret";
const event = { event_id: "evt_1", type: "verification.approved", session_id: "s", status: "APPROVED", vendor_data: null, decision: "approved", occurred_at: "2026-01-01T00:00:00.000Z" };
const body = JSON.stringify(event);
const now = 1_800_000_000;

describe("receiver helper", () => {
  it("accepts a correctly signed delivery", () => {
    expect(verifyWebhook(body, webhookHeaders([secret], "evt_1", body, now), secret, { nowSeconds: now })).toEqual(event);
  });
  it.each([
    ["a tampered body", () => ({ rawBody: body.replace("APPROVED", "DECLINED"), headers: webhookHeaders([secret], "evt_1", body, now) })],
    ["another secret", () => ({ rawBody: body, headers: webhookHeaders(["whsec_other"], "evt_1", body, now) })],
    ["a timestamp 301 s old", () => ({ rawBody: body, headers: webhookHeaders([secret], "evt_1", body, now - 301) })],
    ["a timestamp 301 s ahead", () => ({ rawBody: body, headers: webhookHeaders([secret], "evt_1", body, now + 301) })],
    ["a header event id that is not the body's", () => ({ rawBody: body, headers: webhookHeaders([secret], "evt_2", body, now) })],
    ["no signature", () => ({ rawBody: body, headers: { "x-svc-timestamp": String(now), "x-svc-event-id": "evt_1" } })],
  ])("rejects %s", (_, make) => {
    const input = make();
    expect(() => verifyWebhook(input.rawBody, input.headers, secret, { nowSeconds: now })).toThrow(WebhookVerificationError);
  });
  it("during a secret roll, one header signed with both secrets verifies with either, and not with a third", () => {
    const headers = webhookHeaders(["whsec_new", secret], "evt_1", body, now);
    expect(headers["X-Svc-Signature"]).toMatch(/^[0-9a-f]{64},[0-9a-f]{64}$/);
    expect(verifyWebhook(body, headers, secret, { nowSeconds: now })).toEqual(event);
    expect(verifyWebhook(body, headers, "whsec_new", { nowSeconds: now })).toEqual(event);
    expect(() => verifyWebhook(body, headers, "whsec_third", { nowSeconds: now })).toThrow(WebhookVerificationError);
    // Joined as HTTP joins a repeated header (", ") it verifies too.
    const joined = { ...headers, "X-Svc-Signature": headers["X-Svc-Signature"].replace(",", ", ") };
    expect(verifyWebhook(body, joined, secret, { nowSeconds: now })).toEqual(event);
  });
  it("accepts a timestamp 300 s old", () => {
    expect(() => verifyWebhook(body, webhookHeaders([secret], "evt_1", body, now - 300), secret, { nowSeconds: now })).not.toThrow();
  });
  it("the Web handler answers 400 to a bad signature and processes an event id once", async () => {
    const seen: string[] = [];
    const options = { secret, store: new MemoryDedupStore(), onEvent: (e: { event_id: string }) => void seen.push(e.event_id) };
    const ts = Math.floor(Date.now() / 1000);
    const make = (s: string) => new Request("http://x/hook", { method: "POST", body, headers: webhookHeaders([s], "evt_1", body, ts) });
    expect((await handleWebhookRequest(make("whsec_wrong"), options)).status).toBe(400);
    const first = await handleWebhookRequest(make(secret), options);
    const second = await handleWebhookRequest(make(secret), options);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    expect(seen).toEqual(["evt_1"]);
  });
});

/** The host of a URL as the WHATWG parser leaves it (it rewrites 0x7f.1, 2130706433, 0177.0.0.1 to dotted decimal). */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, "");

describe("address guard for production webhooks", () => {
  it.each([
    ["https://127.0.0.1/", "loopback"],
    ["https://0x7f.1/", "loopback, hex IPv4"],
    ["https://2130706433/", "loopback, one decimal number"],
    ["https://0177.0.0.1/", "loopback, octal"],
    ["https://[::1]/", "IPv6 loopback"],
    ["https://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
    ["https://[::ffff:7f00:1]/", "IPv4-mapped loopback in hex"],
    ["https://[0:0:0:0:0:ffff:a00:1]/", "IPv4-mapped 10.0.0.1, long form"],
    ["https://[64:ff9b::7f00:1]/", "NAT64 (rfc6052) of 127.0.0.1"],
    ["https://[64:ff9b::10.0.0.1]/", "NAT64 of 10.0.0.1"],
    ["https://[64:ff9b:1::a00:1]/", "local-use NAT64 of 10.0.0.1"],
    ["https://[::ffff:0:a00:1]/", "IPv4-translated (rfc6145) 10.0.0.1"],
    ["https://[2002:a00:1::1]/", "6to4 of 10.0.0.1"],
    ["https://[2002:7f00:1::1]/", "6to4 of 127.0.0.1"],
    ["https://[2001:0:a00:1::1]/", "Teredo"],
    ["https://[::7f00:1]/", "deprecated IPv4-compatible 127.0.0.1"],
    ["https://[::]/", "IPv6 unspecified"],
    ["https://0.0.0.0/", "IPv4 unspecified"],
    ["https://0/", "0, which the URL parser makes 0.0.0.0"],
    ["https://10.1.2.3/", "private 10/8"],
    ["https://172.16.0.1/", "private 172.16/12"],
    ["https://192.168.1.1/", "private 192.168/16"],
    ["https://169.254.169.254/", "link-local (cloud metadata)"],
    ["https://100.64.0.1/", "carrier-grade NAT"],
    ["https://192.0.0.8/", "IETF protocol assignments"],
    ["https://192.0.2.1/", "documentation"],
    ["https://198.18.0.1/", "benchmarking"],
    ["https://224.0.0.1/", "multicast"],
    ["https://240.0.0.1/", "reserved"],
    ["https://255.255.255.255/", "broadcast"],
    ["https://[fe80::1]/", "IPv6 link-local"],
    ["https://[fd00::1]/", "unique local"],
    ["https://[ff02::1]/", "IPv6 multicast"],
    ["https://[2001:2::1]/", "IPv6 benchmarking"],
    ["https://[2001:db8::1]/", "IPv6 documentation"],
    ["https://[100::1]/", "discard-only"],
  ])("refuses %s (%s)", async (url) => {
    expect(isAllowedDestination(hostOf(url))).toBe(false);
    const refused = postWebhook(url, {}, "{}", { timeoutMs: 2000, allowHttp: true });
    await expect(refused).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(refused).rejects.toThrow(/^destination address not allowed$/);
  });

  it.each(["https://8.8.8.8/", "https://93.184.216.34/", "https://[2606:4700::1111]/", "https://[2a00:1450:4001:80b::200e]/", "https://[::ffff:8.8.8.8]/"])(
    "lets the public address of %s through",
    (url) => expect(isAllowedDestination(hostOf(url))).toBe(true),
  );

  it("refuses what is not an IP address", () => {
    for (const value of ["example.com", "", "0x7f.1", "2130706433", "127.1"]) expect(isAllowedDestination(value)).toBe(false);
  });

  it("lets through private addresses inside WEBHOOK_ALLOWED_NETWORKS, and only those", () => {
    const { networks } = parseNetworkList("127.0.0.2/32, 10.20.0.0/16, fd00:1::/64");
    expect(isAllowedDestination("127.0.0.2", networks)).toBe(true);
    expect(isAllowedDestination("::ffff:127.0.0.2", networks)).toBe(true);
    expect(isAllowedDestination("10.20.9.9", networks)).toBe(true);
    expect(isAllowedDestination("fd00:1::5", networks)).toBe(true);
    expect(isAllowedDestination("127.0.0.3", networks)).toBe(false);
    expect(isAllowedDestination("10.21.0.1", networks)).toBe(false);
    expect(isAllowedDestination("fd00:2::5", networks)).toBe(false);
    expect(isAllowedDestination("8.8.8.8", networks)).toBe(true);
  });

  it("calls an address public only when it is public unicast: an allowed private network is still private (no response shown)", () => {
    for (const address of ["8.8.8.8", "::ffff:8.8.8.8", "2606:4700::1111"]) expect(isPublicAddress(address), address).toBe(true);
    for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "10.0.0.1", "169.254.169.254", "fd00::1", "", "localhost"]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

describe("WEBHOOK_ALLOWED_NETWORKS", () => {
  it("parses IPv4 and IPv6 CIDRs; an IPv4-mapped network counts as IPv4", () => {
    const { networks, invalid } = parseNetworkList(" 10.0.0.0/8,fd00::/8 ,::ffff:192.168.0.0/112,");
    expect(invalid).toEqual([]);
    expect(networks.map(formatNetwork)).toEqual(["10.0.0.0/8", "fd00::/8", "192.168.0.0/16"]);
    expect(parseNetworkList("").networks).toEqual([]);
  });

  it.each(["10.0.0.0", "10.0.0/8", "10.0.0.0/33", "fd00::/129", "example.com/8", "0x7f.0.0.1/8", "10.0.0.0/8/8", "10.0.0.0/-1"])(
    "%s is not a CIDR",
    (entry) => expect(parseNetworkList(`127.0.0.2/32,${entry}`).invalid).toEqual([entry]),
  );

  it("a bad entry stops start-up with a config error naming the variable and the entry", () => {
    expect(() => parseEnv({ WEBHOOK_ALLOWED_NETWORKS: "10.0.0.0/8,10.0.0/8" })).toThrow(ConfigError);
    expect(() => parseEnv({ WEBHOOK_ALLOWED_NETWORKS: "10.0.0.0/8,10.0.0/8" })).toThrow(/WEBHOOK_ALLOWED_NETWORKS: .*10\.0\.0\/8/);
    expect(parseEnv({ WEBHOOK_ALLOWED_NETWORKS: "10.0.0.0/8" }).WEBHOOK_ALLOWED_NETWORKS).toBe("10.0.0.0/8");
    expect(parseEnv({}).WEBHOOK_ALLOWED_NETWORKS).toBe("");
  });
});

describe("guarded DNS lookup", () => {
  const lookup = (host: string, all: boolean, networks: string) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
      guardedLookup(parseNetworkList(networks).networks)(host, { all }, (err, address, family) => resolve({ err, address, family })),
    );

  it("answers in the form asked for (all: true is what Node's connection autoselection asks)", async () => {
    const all = await lookup("localhost", true, "127.0.0.0/8");
    expect(all.err).toBeNull();
    expect(all.address).toEqual([{ address: "127.0.0.1", family: 4 }]);
    const one = await lookup("localhost", false, "127.0.0.0/8");
    expect(one).toEqual({ err: null, address: "127.0.0.1", family: 4 });
  });

  it("refuses a name whose addresses are all refused, naming them only in the error's detail", async () => {
    for (const all of [true, false]) {
      const { err } = await lookup("localhost", all, "");
      expect(err).toBeInstanceOf(BlockedAddressError);
      expect(err!.message).toBe("destination address not allowed");
      expect((err as BlockedAddressError).detail).toContain("127.0.0.1");
    }
  });

  it("connects a request through it (Node 20+ asks it for all addresses: autoSelectFamily)", async () => {
    const server = http.createServer((_, res) => res.end("ok"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const request = (networks: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          { host: "localhost", port, method: "POST", lookup: guardedLookup(parseNetworkList(networks).networks), agent: false },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end();
      });
    try {
      expect(await request("127.0.0.1/32")).toBe(200);
      await expect(request("")).rejects.toBeInstanceOf(BlockedAddressError);
    } finally {
      server.close();
    }
  });
});

describe("postWebhook", () => {
  it("refuses loopback, by name or address, for test apps (allowHttp) as for production, unless an allowed network holds it", async () => {
    const server = http.createServer((_, res) => res.end("internal service answer"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      for (const allowHttp of [false, true]) {
        await expect(postWebhook(`https://localhost:${port}/h`, {}, "{}", { timeoutMs: 2000, allowHttp })).rejects.toBeInstanceOf(BlockedAddressError);
        await expect(postWebhook(`http://localhost:${port}/h`, {}, "{}", { timeoutMs: 2000, allowHttp })).rejects.toBeInstanceOf(BlockedAddressError);
        await expect(postWebhook(`http://127.0.0.1:${port}/h`, {}, "{}", { timeoutMs: 2000, allowHttp })).rejects.toBeInstanceOf(BlockedAddressError);
      }
      const allowed = parseNetworkList("127.0.0.0/8").networks;
      // An allowed network does not make plain http acceptable for production.
      await expect(
        postWebhook(`http://127.0.0.1:${port}/h`, {}, "{}", { timeoutMs: 2000, allowHttp: false, allowedNetworks: allowed }),
      ).rejects.toBeInstanceOf(BlockedAddressError);
      // Through the allowance a test app reaches it, by address and by name: the status, never the private answer.
      for (const host of ["127.0.0.1", "localhost"]) {
        await expect(postWebhook(`http://${host}:${port}/h`, {}, "{}", { timeoutMs: 2000, allowHttp: true, allowedNetworks: allowed })).resolves.toEqual({
          status: 200,
          body: null,
        });
      }
    } finally {
      server.close();
    }
  });

  it("the delivery log's error text leaves out the addresses a socket error names", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = http.createServer();
      probe.listen(0, "127.0.0.1", () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const err = await postWebhook(`http://127.0.0.1:${port}/h`, {}, "{}", { timeoutMs: 2000, allowHttp: true, allowedNetworks: parseNetworkList("127.0.0.1/32").networks }).catch((e: Error) => e);
    expect((err as Error).message).toContain("127.0.0.1");
    expect(attemptErrorText(err)).toBe("connect ECONNREFUSED");
    expect(attemptErrorText(new BlockedAddressError("evil.example resolves to 10.0.0.1"))).toBe("destination address not allowed");
    expect(attemptErrorText(new Error("timed out after 300 ms"))).toBe("timed out after 300 ms");
  });

  it("times out a receiver that does not answer", async () => {
    const server = http.createServer(() => {});
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      await expect(postWebhook(`http://127.0.0.1:${port}/h`, {}, "{}", { timeoutMs: 300, allowHttp: true, allowedNetworks: parseNetworkList("127.0.0.1/32").networks })).rejects.toThrow(/timed out/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("event types (spec 6 names only)", () => {
  it.each([
    ["APPROVED", "verification.approved"],
    ["DECLINED", "verification.completed"],
    ["IN_REVIEW", "verification.completed"],
    ["EXPIRED", "verification.completed"],
    ["ABANDONED", "verification.completed"],
  ] as const)("a session reaching %s sends %s", (status, type) => expect(sessionEventType(status)).toBe(type));

  it("a recovery pass sends verify.approved, a fail verify.declined", () => {
    expect(recoveryEventType("pass")).toBe("verify.approved");
    expect(recoveryEventType("fail")).toBe("verify.declined");
  });
});

describe("delivery lease", () => {
  it("is the attempt timeout plus a margin, so a dead worker's deliveries are retried soon after", () => {
    expect(leaseMs(15_000)).toBe(15_000 + LEASE_MARGIN_MS);
    expect(leaseMs(2_000)).toBe(2_000 + LEASE_MARGIN_MS);
  });
});

describe("WEBHOOK_CONCURRENCY_PER_APP", () => {
  it("is 8 by default, below the worker's 16 slots, so one tenant leaves slots for the others", () => {
    const env = parseEnv({});
    expect(env.WEBHOOK_CONCURRENCY_PER_APP).toBe(8);
    expect(env.WEBHOOK_CONCURRENCY_PER_APP).toBeLessThan(env.WEBHOOK_CONCURRENCY);
    expect(parseEnv({ WEBHOOK_CONCURRENCY_PER_APP: "3" }).WEBHOOK_CONCURRENCY_PER_APP).toBe(3);
  });

  it.each(["0", "-1", "1.5", "257", "many"])("%s stops start-up with a config error naming the variable", (value) => {
    expect(() => parseEnv({ WEBHOOK_CONCURRENCY_PER_APP: value })).toThrow(/WEBHOOK_CONCURRENCY_PER_APP: /);
  });
});
