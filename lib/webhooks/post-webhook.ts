import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isAllowedDestination, isIpLiteral, isPublicAddress, type IpNetwork } from "@/lib/net/safe-address";

/**
 * A receiver's answer: its status, and the first 1 KB of its body only when
 * the connection went to a public address (null otherwise: a private
 * destination, even one inside WEBHOOK_ALLOWED_NETWORKS, may be an internal
 * service whose answer a tenant must not read).
 */
export type PostResult = { status: number; body: string | null };

/** What the tenant-readable delivery log says about a refused destination. */
export const BLOCKED_DESTINATION_MESSAGE = "destination address not allowed";

/**
 * A delivery refused by the address guard. `message` is generic
 * (it goes into the tenant's delivery log); `detail` names the host and
 * addresses for the server log only.
 */
export class BlockedAddressError extends Error {
  constructor(readonly detail: string) {
    super(BLOCKED_DESTINATION_MESSAGE);
    this.name = "BlockedAddressError";
  }
}

/**
 * The error text of a failed attempt as the tenant's delivery log shows it:
 * a refused destination says only that; a socket error says its operation
 * and code (`connect ECONNREFUSED`) without the address it reached. The full
 * message goes to the server log.
 */
export function attemptErrorText(err: unknown): string {
  if (err instanceof BlockedAddressError) return err.message;
  const e = err as NodeJS.ErrnoException;
  if (typeof e?.code === "string" && typeof e.syscall === "string") return `${e.syscall} ${e.code}`;
  return e instanceof Error ? e.message : String(err);
}

/**
 * A DNS lookup for deliveries: resolves every address of the
 * host, drops each one the guard refuses and answers only with the rest, in
 * the form the caller asked for (`options.all`: Node's connection
 * autoselection asks for every address, a plain connect for one). The
 * check applies to the addresses actually connected to, so a name that
 * resolves (or rebinds) to an internal address cannot reach it.
 */
export function guardedLookup(allowedNetworks: readonly IpNetwork[]): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, options.all ? [] : "", 0);
      const permitted = addresses.filter((a) => isAllowedDestination(a.address, allowedNetworks));
      const first = permitted[0];
      if (!first) {
        const refused = new BlockedAddressError(`${hostname} resolves to ${addresses.map((a) => a.address).join(", ")}`);
        return callback(refused, options.all ? [] : "", 0);
      }
      if (options.all) callback(null, permitted);
      else callback(null, first.address, first.family);
    });
  };
}

/** Refuses a URL before connecting: not https (unless `allowHttp`), or an IP literal the guard refuses. */
function checkUrl(target: URL, allowHttp: boolean, allowedNetworks: readonly IpNetwork[]) {
  const protocols = allowHttp ? ["https:", "http:"] : ["https:"];
  if (!protocols.includes(target.protocol)) throw new BlockedAddressError(`${target.protocol} is not allowed`);
  const host = target.hostname;
  if (isIpLiteral(host) && !isAllowedDestination(host, allowedNetworks)) {
    throw new BlockedAddressError(`${host} is not an allowed address`);
  }
}

/**
 * POSTs one webhook. Every address connected to must pass the guard (public
 * unicast, or inside `allowedNetworks`), for test and production apps alike;
 * the URL must be https unless `allowHttp` (test apps). Resolves with the
 * status and, from a public address only, the first 1 KB of the response
 * (PostResult); rejects on connection errors and after `timeoutMs` (which
 * bounds the whole exchange, body included).
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowHttp: boolean; allowedNetworks?: readonly IpNetwork[] },
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const allowedNetworks = options.allowedNetworks ?? [];
    try {
      checkUrl(target, options.allowHttp, allowedNetworks);
    } catch (err) {
      return reject(err);
    }
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    const client = target.protocol === "https:" ? https : http;
    const req = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": Buffer.byteLength(body) },
        lookup: guardedLookup(allowedNetworks),
        timeout: options.timeoutMs,
      },
      (res) => {
        const readable = isPublicAddress(res.socket.remoteAddress ?? "");
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (readable && text.length < 1024) text += chunk;
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          resolve({ status: res.statusCode ?? 0, body: readable ? text.slice(0, 1024) : null });
        });
        res.on("error", fail);
        res.on("aborted", () => fail(new Error("response aborted")));
      },
    );
    const timedOut = () => {
      const err = new Error(`timed out after ${options.timeoutMs} ms`);
      fail(err);
      req.destroy(err);
    };
    const timer = setTimeout(timedOut, options.timeoutMs);
    req.on("timeout", timedOut);
    req.on("error", fail);
    req.on("close", () => clearTimeout(timer));
    req.end(body);
  });
}
