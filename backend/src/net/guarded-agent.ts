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
 * The one check every outgoing connection passes (fetch_url's agent, the browser's proxy): a literal
 * IP, or every address a name resolves to, must be public unless the host is allowlisted. Answers
 * the address to connect to — the one checked, so a second DNS answer (rebinding) cannot slip in.
 */
export function checkedAddress(host: string, port: number, options: Pick<GuardOptions, "allowlist" | "lookup">): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  const allowlisted = isAllowlisted(bare, port, options.allowlist);
  if (isIP(bare)) {
    const verdict = classifyAddress(bare);
    return !verdict.allowed && !allowlisted ? Promise.reject(refusal(bare, bare, verdict.range)) : Promise.resolve(bare);
  }
  const lookup = options.lookup ?? systemLookup;
  return new Promise((resolve, reject) =>
    lookup(bare, (err, addresses) => {
      if (err) return reject(new BlockedAddressError(`Cannot resolve ${bare}: ${err.message}`));
      if (addresses.length === 0) return reject(new BlockedAddressError(`${bare} has no addresses`));
      if (!allowlisted) {
        for (const { address } of addresses) {
          const verdict = classifyAddress(address);
          if (!verdict.allowed) return reject(refusal(bare, address, verdict.range));
        }
      }
      resolve(addresses[0].address);
    }),
  );
}

/**
 * An undici Agent whose every connection is checked where it is made (`checkedAddress`), then made
 * to the address checked. Redirects open new connections and pass through here again.
 */
export function createGuardedAgent(options: GuardOptions): Agent {
  const connectDirect = buildConnector({ timeout: options.connectTimeoutMs });
  return new Agent({
    connect(opts, callback) {
      const host = (opts.hostname ?? "").replace(/^\[|\]$/g, "");
      const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
      checkedAddress(host, port, options).then(
        (address) => connectDirect({ ...opts, hostname: address, servername: opts.servername ?? (isIP(host) ? undefined : host) } as never, callback),
        (err: Error) => callback(err, null),
      );
    },
  });
}
