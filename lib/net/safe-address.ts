import ipaddr from "ipaddr.js";

/**
 * Where a webhook may connect, for test and production apps alike (SSRF guard). An address is
 * allowed when it is ordinary public unicast, or when it lies in one of the
 * networks the operator allowed (WEBHOOK_ALLOWED_NETWORKS, for receivers on
 * an internal network). Everything else is refused: loopback, private,
 * link-local, unique-local, carrier-grade NAT, multicast, broadcast,
 * unspecified, reserved and documentation ranges, and the IPv6 forms that
 * can carry an IPv4 address elsewhere (IPv4-mapped in any spelling, NAT64
 * rfc6052/rfc6145, 6to4, Teredo), as ipaddr.js's `range()` names them from
 * the IANA special-purpose registries. IPv6 must also lie in 2000::/3, the
 * only block IANA allocates as global unicast (so the deprecated
 * IPv4-compatible ::a.b.c.d and other unallocated space are refused too).
 */
export type IpNetwork = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** The parsed address, IPv4-mapped IPv6 unwrapped to IPv4; null when not an IP address. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/^\[|\]$/g, "");
  // ipaddr.js also accepts legacy IPv4 spellings (0x7f.1, 2130706433); addresses
  // here come from DNS answers or from URLs, whose parser already rewrote those
  // to dotted decimal, so only the standard forms are taken.
  if (!ipaddr.IPv6.isValid(bare) && !ipaddr.IPv4.isValidFourPartDecimal(bare)) return null;
  return ipaddr.process(bare);
}

function inNetwork(ip: ipaddr.IPv4 | ipaddr.IPv6, [network, bits]: IpNetwork): boolean {
  return ip.kind() === network.kind() && ip.match(network, bits);
}

const GLOBAL_UNICAST_V6: IpNetwork = [ipaddr.IPv6.parse("2000::"), 3];

function isPublicUnicast(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return ip.range() === "unicast" && (ip.kind() === "ipv4" || inNetwork(ip, GLOBAL_UNICAST_V6));
}

/** True when `host` (a URL's hostname, brackets allowed) is an IP address rather than a name. */
export function isIpLiteral(host: string): boolean {
  return parseAddress(host) !== null;
}

/** True when `address` (an IP literal) is public unicast: not private, even if an allowed network contains it. */
export function isPublicAddress(address: string): boolean {
  const ip = parseAddress(address);
  return ip !== null && isPublicUnicast(ip);
}

/** True when a webhook may connect to `address` (an IP literal; anything else is refused). */
export function isAllowedDestination(address: string, allowedNetworks: readonly IpNetwork[] = []): boolean {
  const ip = parseAddress(address);
  if (!ip) return false;
  if (isPublicUnicast(ip)) return true;
  return allowedNetworks.some((network) => inNetwork(ip, network));
}

/** An IPv4-mapped IPv6 network (`::ffff:10.0.0.0/104`) as the IPv4 network it names. */
function unwrapMappedNetwork([ip, bits]: IpNetwork): IpNetwork {
  if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress() && bits >= 96) return [ip.toIPv4Address(), bits - 96];
  return [ip, bits];
}

/**
 * Parses a comma-separated list of CIDRs (`10.20.0.0/16, fd00:1::/64`).
 * Returns the networks, and the entries that are not CIDRs (legacy IPv4
 * spellings such as `10.1/16` are refused).
 */
export function parseNetworkList(text: string): { networks: IpNetwork[]; invalid: string[] } {
  const networks: IpNetwork[] = [];
  const invalid: string[] = [];
  for (const entry of text.split(",").map((s) => s.trim()).filter(Boolean)) {
    const address = entry.split("/")[0] ?? "";
    const standard = ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address);
    if (standard && ipaddr.isValidCIDR(entry)) networks.push(unwrapMappedNetwork(ipaddr.parseCIDR(entry)));
    else invalid.push(entry);
  }
  return { networks, invalid };
}

/** `10.0.0.0/8`-style text of a network, for logs. */
export function formatNetwork([ip, bits]: IpNetwork): string {
  return `${ip.toString()}/${bits}`;
}
