import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { Agent, buildConnector } from "undici";
import { classifyAddress, isAllowlisted } from "./address-policy.js";

export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlockedAddressError";
  }
}

export type Lookup = (hostname: string, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void;

const systemLookup: Lookup = (hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, callback);

export interface GuardOptions {
  allowlist: string[];
  connectTimeoutMs: number;
  /** The resolver; the system's by default. */
  lookup?: Lookup;
}

function refusal(host: string, address: string, range: string): BlockedAddressError {
  const how = host === address ? `${address} is` : `${host} resolves to ${address},`;
  return new BlockedAddressError(
    `Refused: ${how} a ${range} address, not a public one. Private, loopback, link-local and metadata addresses are ` +
      "blocked; add the host to FETCH_ALLOWLIST to allow it.",
  );
}

/**
 * An undici Agent whose every connection is checked where it is made: literal IPs and every
 * address a name resolves to must be public, unless the host is allowlisted. It then connects
 * to the address it checked, so a second DNS answer (rebinding) cannot slip in between.
 * Redirects open new connections and pass through here again.
 */
export function createGuardedAgent(options: GuardOptions): Agent {
  const connectDirect = buildConnector({ timeout: options.connectTimeoutMs });
  const lookup = options.lookup ?? systemLookup;
  return new Agent({
    connect(opts, callback) {
      const host = (opts.hostname ?? "").replace(/^\[|\]$/g, "");
      const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
      const allowlisted = isAllowlisted(host, port, options.allowlist);
      const connectTo = (address: string) =>
        connectDirect({ ...opts, hostname: address, servername: opts.servername ?? (isIP(host) ? undefined : host) } as never, callback);

      if (isIP(host)) {
        const verdict = classifyAddress(host);
        if (!verdict.allowed && !allowlisted) return callback(refusal(host, host, verdict.range), null);
        return connectTo(host);
      }
      lookup(host, (err, addresses) => {
        if (err) return callback(new BlockedAddressError(`Cannot resolve ${host}: ${err.message}`), null);
        if (addresses.length === 0) return callback(new BlockedAddressError(`${host} has no addresses`), null);
        if (!allowlisted) {
          for (const { address } of addresses) {
            const verdict = classifyAddress(address);
            if (!verdict.allowed) return callback(refusal(host, address, verdict.range), null);
          }
        }
        connectTo(addresses[0].address);
      });
    },
  });
}
