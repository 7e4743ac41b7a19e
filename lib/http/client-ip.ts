import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";
import { env } from "@/lib/config/env";
import type { HeaderReader } from "./core/request";
import { processSlot } from "@/lib/process-slots";

/**
 * Set by the node:http edge from the TCP socket on every request,
 * overwriting anything a client sent under that name.
 */
export const PEER_IP_HEADER = "x-svc-peer-ip";

type Trust = (address: string, hop: number) => boolean;
const proxyTrustSlot = processSlot<{ source: string; trust: Trust | null }>("proxyTrust");

/**
 * TRUST_PROXY (docs/configuration.md): off; a number N of proxies in front
 * (`1` = one load balancer); or the proxies' addresses and CIDRs
 * (`loopback`, `linklocal`, `uniquelocal` also name ranges). The client is
 * the right-most X-Forwarded-For address that is not a trusted proxy
 * (proxy-addr, Express's algorithm): addresses a client wrote further left
 * are never believed.
 */
export function compileProxyTrust(setting: string | number | null): Trust | null {
  if (setting === null || setting === 0) return null;
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return proxyaddr.compile(setting.split(",").map((s) => s.trim()).filter(Boolean));
}

function proxyTrust(): Trust | null {
  const setting = env().TRUST_PROXY;
  const source = String(setting);
  if (proxyTrustSlot.value?.source !== source) proxyTrustSlot.value = { source, trust: compileProxyTrust(setting) };
  return proxyTrustSlot.value.trust;
}

/** The client's IP: the socket's peer, or behind trusted proxies the address they saw. */
export function clientIp(req: { headers: HeaderReader }): string {
  return clientIpBehind(req, proxyTrust());
}

export function clientIpBehind(req: { headers: HeaderReader }, trust: Trust | null): string {
  const peer = req.headers.get(PEER_IP_HEADER) ?? "unknown";
  if (!trust || peer === "unknown") return peer;
  const forwarded = req.headers.get("x-forwarded-for") ?? undefined;
  return proxyaddr({ headers: { "x-forwarded-for": forwarded }, socket: { remoteAddress: peer } } as never, trust);
}

/**
 * The key under which a client IP's abuse limits are counted (every per-IP
 * rate-limit key, lib/http/rate-limit.ts `{ ip }`): an IPv4 address (an
 * IPv4-mapped IPv6 address counts as its IPv4 address) is itself; any other
 * IPv6 address counts as its /64 network (`2001:db8:1:2::/64`), the block a
 * single host or site is usually given, so that the addresses of one /64
 * share one budget. Anything that is not an IP address (`unknown`) is
 * returned as is. What is logged or shown as the client IP is unchanged.
 */
export function abuseKeyOfIp(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === "ipv4") return address.toString();
  const network = new ipaddr.IPv6([...(address as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]);
  return `${network.toRFC5952String()}/64`;
}
