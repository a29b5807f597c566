import { CREDENTIAL_NAME, urlSecrets } from "../secrets/workbench-secrets.js";
import type { McpServerConfig } from "./mcp-config.js";

/** The credentials in an MCP server's entry (for the secret scrubber): its secret-looking environment and headers, its URL's password and query. */
export function mcpCredentials(server: McpServerConfig): string[] {
  if (server.transport === "stdio") return Object.entries(server.env).flatMap(([name, value]) => (CREDENTIAL_NAME.test(name) ? [value] : []));
  return [...Object.entries(server.headers).flatMap(([name, value]) => (CREDENTIAL_NAME.test(name) ? [value] : [])), ...urlSecrets(server.url)];
}
