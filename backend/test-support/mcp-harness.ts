/**
 * Helpers for the MCP tests: data roots with an MCP.json, waiting for servers, a model that calls
 * tools in order, and where the reference servers from the registry are.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ChatEvent, McpReply, ToolResultEvent } from "@mini-openclaw/protocol";
import { type ChatRequestBody, messageText } from "./scripted-model-server.js";
import type { Workbench } from "./workbench-harness.js";

const require = createRequire(import.meta.url);
export const everything = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist/index.js");
export const filesystem = join(dirname(require.resolve("@modelcontextprotocol/server-filesystem/package.json")), "dist/index.js");
export const scriptedMcpServer = join(import.meta.dirname, "scripted-mcp-server.mjs");

/** A data root whose MCP.json holds `config` (an object, or text as written). */
export async function rootWith(config: unknown): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "moc-mcp-"));
  await writeFile(join(root, "MCP.json"), typeof config === "string" ? config : JSON.stringify(config, null, 2));
  return root;
}

export async function mcpState(wb: Workbench): Promise<McpReply> {
  return (await (await fetch(`${wb.url}/api/mcp`)).json()) as McpReply;
}

/** Polls GET /api/mcp until `ready` holds (or fails the test with what it saw). */
export async function waitForMcp(wb: Workbench, ready: (reply: McpReply) => boolean, ms = 20_000): Promise<McpReply> {
  const until = Date.now() + ms;
  let reply = await mcpState(wb);
  while (!ready(reply)) {
    if (Date.now() > until) throw new Error(`MCP never got there: ${JSON.stringify(reply, null, 2)}`);
    await new Promise((r) => setTimeout(r, 100));
    reply = await mcpState(wb);
  }
  return reply;
}
export const connected = (...names: string[]) => (reply: McpReply) => names.every((n) => reply.servers.find((s) => s.name === n)?.state === "connected");

export const toolMessages = (body: ChatRequestBody) => body.messages.filter((m) => m.role === "tool").map((m) => messageText(m.content));
/** A model that makes `calls` one per step, then answers with what the tools said. */
export const callsThenAnswer = (calls: Array<{ name: string; args: Record<string, unknown> }>) => (body: ChatRequestBody) => {
  const done = toolMessages(body);
  return done.length < calls.length ? { toolCalls: [calls[done.length]] } : { content: `Done: ${done.join(" | ")}` };
};
export const resultsOf = (events: ChatEvent[]) => events.filter((e): e is ToolResultEvent => e.type === "tool_result");

