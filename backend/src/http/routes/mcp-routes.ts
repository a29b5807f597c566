import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { UserError } from "../../lib/user-error.js";
import type { McpHub } from "../../mcp/mcp-hub.js";
import { routeOf, typed } from "../api-route.js";

/** The MCP servers of MCP.json: their state, tools and troubles; restart one. */
export async function mcpRoutes(app: FastifyInstance, { mcp }: { mcp: McpHub }) {
  typed(app).route({ ...routeOf(api.mcp.status), handler: async () => mcp.status() });

  typed(app).route({
    ...routeOf(api.mcp.restart),
    handler: async (request, reply) => {
      const { name } = request.params;
      if (!(await mcp.restart(name))) throw new UserError("not_found", `No MCP server named "${name}" in MCP.json.`);
      return reply.code(202).send({ restarting: name });
    },
  });
}
