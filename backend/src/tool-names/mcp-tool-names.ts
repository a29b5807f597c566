import { createHash } from "node:crypto";

/** The longest function name OpenAI-compatible servers accept. */
export const MAX_TOOL_NAME = 64;
export const MCP_PREFIX = "mcp__";

/** Characters outside `[A-Za-z0-9_-]` become `_` (what every provider accepts in a function name). */
export function sanitizeNamePart(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    const ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || ch === "_" || ch === "-";
    out += ok && ch.length === 1 ? ch : "_";
  }
  return out;
}

const shortHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 8);

/**
 * `mcp__<server>__<tool>`, as Claude Code names them. A name over 64 characters keeps its start and
 * ends in a hash of the whole (server and tool as the server wrote them), so the same tool gets the same
 * name every time; `taken` makes two tools that would meet under one name differ (the later one gets
 * the hash). Core tool names never start with `mcp__`, so they are never taken.
 */
export function mcpToolName(server: string, tool: string, taken: Set<string>): string {
  const full = `${MCP_PREFIX}${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`;
  const hashed = () => {
    const suffix = `_${shortHash(`${server}\u0000${tool}`)}`;
    return `${full.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
  };
  let name = full.length <= MAX_TOOL_NAME ? full : hashed();
  if (taken.has(name)) name = hashed();
  for (let n = 2; taken.has(name); n++) name = `${hashed().slice(0, MAX_TOOL_NAME - String(n).length - 1)}_${n}`;
  taken.add(name);
  return name;
}

export const isMcpToolName = (name: string): name is `mcp__${string}` => name.startsWith(MCP_PREFIX);

/**
 * Whether a rule names this MCP tool (APPROVALS.json's `mcp` section, a skill's `allowed-tools`):
 * `mcp__server__tool` (the name the model calls), or a whole server as `mcp__server` or
 * `mcp__server__*`. `mcp__*` alone names nothing: it would cover every server there will ever be.
 */
export function mcpRuleMatches(rule: string, exposedName: string, server: string): boolean {
  const prefix = `${MCP_PREFIX}${sanitizeNamePart(server)}`;
  return rule === exposedName || rule === prefix || rule === `${prefix}__*`;
}
