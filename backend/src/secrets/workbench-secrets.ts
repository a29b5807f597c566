/**
 * Where the workbench's secrets are: the scrubber's sources. Each is asked afresh at every use, so a
 * key saved from the Model dialog or an MCP server added to MCP.json is covered from that moment.
 */
import type { Config } from "../config/config.js";
import type { McpServerConfig } from "../mcp/mcp-config.js";
import { SecretScrubber } from "./secret-scrubber.js";

/** Names of environment variables and headers that carry credentials (not `NODE_ENV=production`). */
const CREDENTIAL_NAME = /key|token|secret|pass|auth|cred|cookie|session|signature|bearer/i;

/** A URL's password and query values: its host and path are not secret. */
function urlSecrets(value: string | null | undefined): string[] {
  if (!value) return [];
  try {
    const url = new URL(value);
    return [decodeURIComponent(url.password), ...[...url.searchParams.values()]];
  } catch {
    return [];
  }
}

/** The credentials in an MCP server's entry: its secret-looking environment and headers, its URL's password and query. */
export function mcpCredentials(server: McpServerConfig): string[] {
  if (server.transport === "stdio") return Object.entries(server.env).flatMap(([name, value]) => (CREDENTIAL_NAME.test(name) ? [value] : []));
  return [...Object.entries(server.headers).flatMap(([name, value]) => (CREDENTIAL_NAME.test(name) ? [value] : [])), ...urlSecrets(server.url)];
}

/** The scrubber over the settings the configuration holds: every model key, the embedding key, OTLP headers, the database password. */
export function workbenchSecrets(config: Config): SecretScrubber {
  const scrubber = new SecretScrubber();
  scrubber.addSource(() => [
    config.model.apiKey,
    ...Object.values(config.profileKeys),
    config.embedding.apiKey,
    ...Object.values(config.telemetry?.headers ?? {}),
    ...urlSecrets(config.knowledgeStore?.url),
  ]);
  return scrubber;
}
