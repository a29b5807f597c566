/**
 * The MCP tools of one session, from the catalog fixed when it started: each calls its server as it
 * is now (a server that went down since answers with why), with the server's own timeout; cancelling
 * (Stop, a timeout) sends the server `notifications/cancelled`.
 */
import type { McpCatalog, McpToolRecord } from "@mini-openclaw/protocol";
import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { CoreTool, ToolResult } from "../tools/core-tool.js";
import type { McpHub } from "./mcp-hub.js";
import { OMITTED_CHARS } from "./large-message.js";
import { capText, convertToolResult, MAX_RESULT_CHARS } from "./mcp-result.js";


const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

function failure(server: string, tool: string, err: unknown, timeoutMs: number): ToolResult {
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    return { ok: false, output: `Error: ${tool} on the MCP server "${server}" timed out after ${timeoutMs} ms and was cancelled.`, details: { timed_out: true } };
  }
  return { ok: false, output: `Error: ${tool} on the MCP server "${server}" failed: ${describe(err)}`, details: {} };
}

function callTool(hub: McpHub, record: McpToolRecord): CoreTool {
  // zod only says the arguments are an object; they are checked against the server's JSON Schema off the server's thread.
  const schema = z.record(z.string(), z.unknown());
  return {
    name: record.name as CoreTool["name"],
    description: record.description,
    schema,
    parameters: record.parameters,
    mcp: { server: record.server, tool: record.tool, readOnly: record.read_only },
    checkArguments: (input) => hub.schemas.argumentProblems(record.parameters, input),
    async execute(input, call) {
      const connection = hub.get(record.server);
      if (!connection || connection.state !== "connected") {
        const state = connection ? `${connection.state}${connection.reason ? ` (${connection.reason})` : ""}` : "no longer in MCP.json";
        return { ok: false, output: `Error: the MCP server "${record.server}" is ${state}; ${record.tool} did not run.`, details: { server: record.server, tool: record.tool } };
      }
      const timeoutMs = connection.config.toolTimeoutMs;
      try {
        const result = await connection.callTool(record.tool, input as Record<string, unknown>, call.signal);
        const converted = convertToolResult(result);
        return { ok: converted.ok, output: converted.output, details: { server: record.server, tool: record.tool, ...converted.details } };
      } catch (err) {
        call.signal.throwIfAborted();
        const failed = failure(record.server, record.tool, err, timeoutMs);
        return { ...failed, details: { server: record.server, tool: record.tool, ...failed.details } };
      }
    },
  };
}

/** Reads a resource of a server that has them (the servers are named in the tool's description). */
function readResourceTool(hub: McpHub, servers: string[]): CoreTool {
  return {
    name: "mcp_read_resource",
    description: `Reads a resource (by its URI) from an MCP server. Servers with resources: ${servers.join(", ")}.`,
    schema: z.object({ server: z.string().describe("The MCP server's name"), uri: z.string().min(1).describe("The resource's URI, as the server gave it") }),
    mcp: { server: "*", tool: "resources/read", readOnly: true },
    async execute(input, call) {
      const { server, uri } = input as { server: string; uri: string };
      if (!servers.includes(server)) return { ok: false, output: `Error: "${server}" is not an MCP server with resources in this session; try one of ${servers.join(", ")}.` };
      const connection = hub.get(server);
      if (!connection || connection.state !== "connected") return { ok: false, output: `Error: the MCP server "${server}" is not connected.` };
      try {
        const result = await connection.readResource(uri, call.signal);
        const parts = result.contents.map((c) =>
          "text" in c && typeof c.text === "string" ? `[${c.uri}${c.mimeType ? `, ${c.mimeType}` : ""}]\n${c.text}` : `[${c.uri}: ${c.mimeType ?? "binary"}, ${Math.floor((String((c as { blob?: string }).blob ?? "").length * 3) / 4)} bytes, not shown to the model]`,
        );
        const omitted = Number((result._meta as Record<string, unknown> | undefined)?.[OMITTED_CHARS] ?? 0) || 0;
        const { text, cut } = capText(parts.join("\n") || "(empty resource)", MAX_RESULT_CHARS, omitted);
        return { ok: true, output: text, details: { server, uri, ...(cut ? { truncated_chars: cut } : {}) } };
      } catch (err) {
        call.signal.throwIfAborted();
        return failure(server, `resources/read ${uri}`, err, connection.config.toolTimeoutMs);
      }
    },
  } as CoreTool;
}

/** The session's MCP tools: one per catalog entry, and `mcp_read_resource` when a server has resources. */
export function mcpTools(hub: McpHub, catalog: McpCatalog | undefined): CoreTool[] {
  if (!catalog) return [];
  const tools = catalog.tools.map((record) => callTool(hub, record));
  if (catalog.resources.length > 0) tools.push(readResourceTool(hub, catalog.resources));
  return tools;
}
