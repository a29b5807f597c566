/**
 * Where the workbench's secrets are: the scrubber's sources. Each is asked afresh at every use, so a
 * key saved from the Model dialog or an MCP server added to MCP.json is covered from that moment.
 */
import type { Config } from "../config/config.js";
import { SecretScrubber } from "./secret-scrubber.js";

/** Names of environment variables and headers that carry credentials (not `NODE_ENV=production`). */
export const CREDENTIAL_NAME = /key|token|secret|pass|auth|cred|cookie|session|signature|bearer/i;

/** A URL's password and query values: its host and path are not secret. */
export function urlSecrets(value: string | null | undefined): string[] {
  if (!value) return [];
  try {
    const url = new URL(value);
    return [decodeURIComponent(url.password), ...[...url.searchParams.values()]];
  } catch {
    return [];
  }
}

/** The scrubber over the settings the configuration holds: every model key, the embedding key, the search keys, OTLP headers, the database password. */
export function workbenchSecrets(config: Config): SecretScrubber {
  const scrubber = new SecretScrubber();
  scrubber.addSource(() => [
    config.model.apiKey,
    ...Object.values(config.profileKeys),
    config.embedding.apiKey,
    ...Object.values(config.searchKeys),
    ...Object.values(config.telemetry?.headers ?? {}),
    ...urlSecrets(config.knowledgeStore?.url),
  ]);
  return scrubber;
}
