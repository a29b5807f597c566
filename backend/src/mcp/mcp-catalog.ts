import { builtinToolNames } from "@mini-openclaw/protocol";
import type { McpCatalog, McpToolRecord } from "@mini-openclaw/protocol";
import { CORE_TOOL_NAMES, DELEGATE_TOOL } from "../tool-names/core-tool-names.js";
import type { McpConnection } from "./mcp-connection.js";
import { mcpToolName } from "../tool-names/mcp-tool-names.js";
import { plainParameters } from "./schema-check.js";

/** The most tools a request may carry: OpenAI's API refuses a request with more. */
const MAX_REQUEST_TOOLS = 128;
/**
 * MCP tools one session may have in all: the built-in tools (the core tools, `delegate`, `schedule`)
 * and `mcp_read_resource` need their places among the request's 128.
 */
export const MAX_SESSION_TOOLS = MAX_REQUEST_TOOLS - builtinToolNames.length - 1;
/** A description longer than this is cut (the model reads every one in every request). */
const MAX_DESCRIPTION = 2_000;

/**
 * The MCP tools a new session gets, from the servers as they are now: connected servers' tools whose
 * schemas are usable, each under its `mcp__server__tool` name; every server not connected is listed
 * in `left_out` with its state, so the agent can be told. Fixed in the session file from then on.
 */
export function buildCatalog(connections: McpConnection[]): McpCatalog {
  const taken = new Set<string>([...CORE_TOOL_NAMES, DELEGATE_TOOL, "mcp_read_resource"]);
  const tools: McpToolRecord[] = [];
  const catalog: McpCatalog = { tools, resources: [], left_out: [], skipped_tools: [] };
  for (const connection of [...connections].sort((a, b) => a.name.localeCompare(b.name))) {
    if (connection.state !== "connected") {
      catalog.left_out.push({ server: connection.name, reason: connection.state === "disabled" ? "disabled in MCP.json" : `${connection.state}${connection.reason ? `: ${connection.reason}` : ""}` });
      continue;
    }
    if (connection.hasResources) catalog.resources.push(connection.name);
    for (const tool of connection.tools) {
      if (tool.schemaProblem !== null) {
        catalog.skipped_tools.push({ server: connection.name, tool: tool.name, reason: tool.schemaProblem });
        continue;
      }
      if (tools.length >= MAX_SESSION_TOOLS) {
        catalog.skipped_tools.push({ server: connection.name, tool: tool.name, reason: `over the ${MAX_SESSION_TOOLS} MCP tools a session can have (model APIs take at most 128 tools)` });
        continue;
      }
      const description = tool.description.length > MAX_DESCRIPTION ? `${tool.description.slice(0, MAX_DESCRIPTION)}…` : tool.description;
      tools.push({
        name: mcpToolName(connection.name, tool.name, taken),
        server: connection.name,
        tool: tool.name,
        description: description || `${tool.name} (MCP server ${connection.name})`,
        parameters: plainParameters(tool.inputSchema as Record<string, unknown>),
        read_only: tool.readOnly,
      });
    }
  }
  return catalog;
}

/** What the agent is told about MCP servers it does not have this session (part of the fixed prompt). */
export function leftOutNote(catalog: McpCatalog | undefined): string | null {
  if (!catalog) return null;
  const parts: string[] = [];
  if (catalog.left_out.length > 0) {
    const lines = catalog.left_out.map((s) => `- ${s.server}: ${s.reason}`);
    parts.push(`MCP servers configured but not available in this session (their tools are not offered):\n${lines.join("\n")}`);
  }
  const capped = catalog.skipped_tools.filter((t) => t.reason.startsWith("over the"));
  if (capped.length > 0) {
    const servers = [...new Set(capped.map((t) => t.server))];
    parts.push(`${capped.length} tools of ${servers.join(", ")} are not offered: a session can have at most ${MAX_SESSION_TOOLS} MCP tools.`);
  }
  return parts.length ? parts.join("\n\n") : null;
}
