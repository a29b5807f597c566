/**
 * A saved key belongs to the host it was saved for. When a profile's base URL moves to another host
 * and the user did not type the key again, the key is not sent there (Test connection tries without
 * it) and saving is refused until the user confirms that the new host may have it.
 */
import { UserError } from "../lib/user-error.js";
import { endpointOf } from "../config/default-endpoint.js";

function originOf(baseUrl: string | null | undefined): string {
  const url = endpointOf(baseUrl);
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Whether a saved key would go to another host than the one it was saved for. */
export function keyWouldMove(savedBaseUrl: string | null, nextBaseUrl: string | null | undefined, savedKey: string | null): boolean {
  return savedKey !== null && originOf(savedBaseUrl) !== originOf(nextBaseUrl);
}

/** The saved key for a test: kept for its own host, left out for another. */
export function keyForTest(savedBaseUrl: string | null, nextBaseUrl: string | null | undefined, savedKey: string | null, confirmed: boolean | undefined): string | null {
  return keyWouldMove(savedBaseUrl, nextBaseUrl, savedKey) && confirmed !== true ? null : savedKey;
}

/**
 * Refuses a save that would send the saved key to a new host unconfirmed (409, with both hosts).
 * `whose`: the key's owner as the message names it (`the profile "local"`, `the embeddings`).
 */
export function checkKeyHost(whose: string, savedBaseUrl: string | null, nextBaseUrl: string | null | undefined, savedKey: string | null, confirmed: boolean | undefined): void {
  if (!keyWouldMove(savedBaseUrl, nextBaseUrl, savedKey) || confirmed === true) return;
  const from = originOf(savedBaseUrl);
  const to = originOf(nextBaseUrl);
  throw new UserError(
    "conflict",
    `${whose.charAt(0).toUpperCase()}${whose.slice(1)} has a key saved for ${from}; its base URL now points at ${to}. Type the key again for ${to}, or confirm that ${to} may have the saved key.`,
    { key_host: { from, to } },
  );
}
