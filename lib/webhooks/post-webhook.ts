import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isPrivateAddress } from "./safe-address";

export type PostResult = { status: number; body: string };

export class BlockedAddressError extends Error {}

/** A DNS lookup that refuses private addresses, checked on the address actually connected to (no rebinding). */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: false }, (err, address, family) => {
    if (err) return callback(err, "", 0);
    if (isPrivateAddress(address as string)) {
      return callback(new BlockedAddressError(`${hostname} resolves to a private address (${address})`), "", 0);
    }
    callback(null, address as string, family as number);
  });
};

/**
 * POSTs one webhook. `allowPrivate` is false for production apps: the URL
 * must be https and must not reach a private, loopback or link-local
 * address. Resolves with the status and the first 1 KB of the response;
 * rejects on connection errors and after `timeoutMs`.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    if (!options.allowPrivate) {
      if (target.protocol !== "https:") return reject(new BlockedAddressError("production webhooks must use https"));
      const literal = target.hostname.replace(/^\[|\]$/g, "");
      if ((/^[\d.]+$/.test(literal) || literal.includes(":")) && isPrivateAddress(literal)) {
        return reject(new BlockedAddressError(`${literal} is a private address`));
      }
    }
    const client = target.protocol === "https:" ? https : http;
    const req = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": Buffer.byteLength(body) },
        lookup: options.allowPrivate ? undefined : publicOnlyLookup,
        timeout: options.timeoutMs,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (text.length < 1024) text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text.slice(0, 1024) }));
        res.on("error", reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on("timeout", () => req.destroy(new Error(`timed out after ${options.timeoutMs} ms`)));
    req.on("error", reject);
    req.on("close", () => clearTimeout(timer));
    req.end(body);
  });
}
