import type { McpReply } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { UserError } from "../../lib/user-error.js";
import type { McpHub } from "../../mcp/mcp-hub.js";

/** The MCP servers of MCP.json: their state, tools and troubles; restart one. */
export async function mcpRoutes(app: FastifyInstance, { mcp }: { mcp: McpHub }) {
  app.get("/api/mcp", async (): Promise<McpReply> => mcp.status());

  app.post<{ Params: { name: string } }>("/api/mcp/:name/restart", async (request, reply) => {
    const { name } = request.params;
    if (!(await mcp.restart(name))) throw new UserError(404, `No MCP server named "${name}" in MCP.json.`);
    reply.code(202);
    return { restarting: name };
  });
}
