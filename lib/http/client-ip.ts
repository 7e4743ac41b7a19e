import { env } from "@/lib/config/env";

/**
 * Set by server.mjs from the TCP socket on every request, overwriting
 * anything a client sent under that name.
 */
export const PEER_IP_HEADER = "x-svc-peer-ip";

/**
 * The client's IP: the socket's peer address, or, only when TRUST_PROXY is
 * set (the app runs behind a proxy that sets X-Forwarded-For), the first
 * address of X-Forwarded-For.
 */
export function clientIp(req: { headers: { get(name: string): string | null } }): string {
  if (env().TRUST_PROXY) {
    const forwarded = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return req.headers.get(PEER_IP_HEADER) ?? "unknown";
}
