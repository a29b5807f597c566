/**
 * `/mcp__<server>__<prompt> args`: an MCP server's prompt as a slash command, as Claude Code offers
 * them. The words after the command fill the prompt's arguments in order (the last takes the rest);
 * the messages the server returns become the user's message to the model.
 */
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { UserError } from "../lib/user-error.js";
import type { McpHub } from "./mcp-hub.js";
import { capText } from "./mcp-result.js";
import { MCP_PREFIX, sanitizeNamePart } from "../tool-names/mcp-tool-names.js";

const PROMPT_TIMEOUT_MS = 30_000;

/** Fills the prompt's declared arguments from the words typed after the command. */
function fillArguments(declared: Array<{ name: string; required: boolean }>, typed: string): Record<string, string> {
  const words = typed.split(/\s+/).filter(Boolean);
  const values: Record<string, string> = {};
  declared.forEach((arg, i) => {
    if (i >= words.length) return;
    values[arg.name] = i === declared.length - 1 ? words.slice(i).join(" ") : words[i];
  });
  const missing = declared.filter((a) => a.required && values[a.name] === undefined).map((a) => a.name);
  if (missing.length) throw new UserError("invalid_request", `This MCP prompt needs ${missing.join(", ")}: type ${declared.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ")} after the command.`);
  return values;
}

function messageText(result: GetPromptResult): string {
  return result.messages
    .map((m) => {
      const c = m.content;
      const text = c.type === "text" ? c.text : c.type === "resource" && "text" in c.resource ? String(c.resource.text) : `[${c.type} content]`;
      return m.role === "assistant" ? `(assistant) ${text}` : text;
    })
    .join("\n\n");
}

/** The model's message for an MCP prompt command, or null when the name is not `mcp__…`. */
export async function loadMcpPromptCommand(hub: McpHub, name: string, args: string): Promise<string | null> {
  if (!name.startsWith(MCP_PREFIX)) return null;
  const rest = name.slice(MCP_PREFIX.length);
  const servers = hub.status().servers;
  for (const server of servers) {
    const prefix = `${sanitizeNamePart(server.name)}__`;
    if (!rest.startsWith(prefix)) continue;
    const wanted = rest.slice(prefix.length);
    const connection = hub.get(server.name)!;
    const prompt = connection.prompts.find((p) => sanitizeNamePart(p.name) === wanted);
    if (!prompt) continue;
    if (connection.state !== "connected") throw new UserError("unavailable", `The MCP server "${server.name}" is ${connection.state}; /${name} cannot run now.`);
    const values = fillArguments(prompt.arguments, args);
    let result: GetPromptResult;
    try {
      result = await connection.getPrompt(prompt.name, values, AbortSignal.timeout(PROMPT_TIMEOUT_MS));
    } catch (err) {
      throw new UserError("upstream_failed", `The MCP server "${server.name}" could not give the prompt ${prompt.name}: ${(err as Error).message}`);
    }
    const { text } = capText(messageText(result));
    return `${text}\n\n(The user ran /${name}${args ? ` with: ${args}` : ""}, a prompt from the MCP server "${server.name}".)`;
  }
  const known = servers.flatMap((s) => hub.get(s.name)!.prompts.map((p) => `/${MCP_PREFIX}${sanitizeNamePart(s.name)}__${sanitizeNamePart(p.name)}`));
  throw new UserError("not_found", `Unknown MCP prompt /${name}. Available: ${known.slice(0, 20).join(", ") || "none"}.`);
}
