import ipaddr from "ipaddr.js";

export interface AddressVerdict {
  allowed: boolean;
  /** ipaddr.js's name for the range: unicast, loopback, private, linkLocal, uniqueLocal, ... */
  range: string;
}

/** Only public unicast addresses are reachable; IPv4 mapped into IPv6 is judged as IPv4. */
export function classifyAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: "invalid" };
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  return { allowed: range === "unicast", range };
}

/**
 * FETCH_ALLOWLIST entries are `host` or `host:port` (IPv6 as `[::1]:8080`): such hosts may be
 * reached although they are private or loopback (a local service the user wants the agent to use).
 */
export function isAllowlisted(hostname: string, port: number, allowlist: string[]): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return allowlist.some((entry) => {
    const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(entry.trim().toLowerCase());
    if (!match) return false;
    const [, entryHost, entryPort] = match;
    return entryHost === host && (entryPort === undefined || Number(entryPort) === port);
  });
}
