import { z } from "zod";
import { errorReplies, operation } from "./operation.js";

/** One MCP server as `GET /api/mcp` shows it. */
export const mcpServerStatusSchema = z.object({
  name: z.string(),
  state: z.enum(["connecting", "connected", "failed", "disabled"]),
  transport: z.enum(["stdio", "http"]),
  /** The config file it came from. */
  source: z.string(),
  /** The command line (stdio) or the URL (remote) as written in MCP.json, `${VAR}`s unexpanded, a URL's query values hidden; headers are never shown. */
  target: z.string(),
  /** What went wrong, or what is happening (a restart's wait), in words. */
  reason: z.string().nullable(),
  /** The server's tools as it lists them (names as on the server, and as the model calls them in new sessions). */
  tools: z.array(z.object({ name: z.string(), exposed_as: z.string().nullable(), description: z.string(), read_only: z.boolean(), problem: z.string().optional() })),
  prompts: z.array(z.object({ name: z.string(), description: z.string() })),
  resources: z.boolean(),
  /** The last lines of its stderr (stdio servers). */
  stderr: z.array(z.string()),
  warnings: z.array(z.string()),
  restarts: z.number().int(),
  /** The server's process id (stdio), while it runs. */
  pid: z.number().int().nullable(),
});
export type McpServerStatus = z.infer<typeof mcpServerStatusSchema>;

/** `GET /api/mcp`. */
export const mcpReplySchema = z
  .object({
    /** Where MCP.json is, relative to the data root, and whether it exists. */
    file: z.object({ path: z.string(), exists: z.boolean(), problem: z.string().nullable() }),
    servers: z.array(mcpServerStatusSchema),
    /** Entries of the file that could not be used, each with its reason. */
    problems: z.array(z.object({ name: z.string().nullable(), reason: z.string() })),
  })
  .meta({ id: "McpReply" });
export type McpReply = z.infer<typeof mcpReplySchema>;

export const mcpApi = {
  status: operation({ method: "GET", path: "/api/mcp", summary: "The MCP servers of MCP.json: state, tools, problems", responses: { 200: mcpReplySchema } }),
  restart: operation({
    method: "POST",
    path: "/api/mcp/:name/restart",
    summary: "Restarts one MCP server",
    params: z.object({ name: z.string().max(200) }),
    responses: { 202: z.object({ restarting: z.string() }).meta({ id: "McpRestartReply" }), ...errorReplies(404) },
  }),
};
