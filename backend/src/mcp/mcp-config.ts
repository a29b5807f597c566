/**
 * `MCP.json` at the top of the data root (beside APPROVALS.json, outside every folder the sandbox can
 * write), pasted as people already have it:
 * - Claude Code / Claude Desktop / Cursor: `{ "mcpServers": { name: { command, args, env, cwd } | { type: "http" | "sse", url, headers } } }`
 * - VS Code: `{ "servers": { name: { type: "stdio" | "http" | "sse", ... } } }`
 * Per server also `disabled`, `startup_timeout_ms`, `tool_timeout_ms`. An entry that is wrong fails
 * alone, with its reason; the others load.
 */
import { z } from "zod";
import { MCP_FILE } from "../settings/settings-files.js";
import { expandVars } from "./expand-vars.js";

export const MCP_FILE_MAX_BYTES = 256 * 1024;
/** How long a server may take to answer `initialize` before it is `failed`. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
/** How long one tool call may run before it is cancelled and the agent told so. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

interface Common {
  name: string;
  /**
   * What to show of it (the MCP view, the API): the command line or URL as written in the file, before
   * `${VAR}`s expand (they often hold tokens), with a URL's query values hidden.
   */
  display: string;
  disabled: boolean;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** `${VAR}`s that were unset, and other things worth knowing about the entry. */
  warnings: string[];
}
export interface StdioServerConfig extends Common {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | null;
}
export interface RemoteServerConfig extends Common {
  transport: "http" | "sse";
  url: string;
  headers: Record<string, string>;
}
export type McpServerConfig = StdioServerConfig | RemoteServerConfig;

export interface McpConfigProblem {
  /** The entry's name; null for the file as a whole. */
  name: string | null;
  reason: string;
}

export interface McpConfig {
  servers: McpServerConfig[];
  /** Entries that could not be used, each with its reason (the file's own problem has `name: null`). */
  problems: McpConfigProblem[];
}

const timeout = z.number().int().min(100).max(24 * 3_600_000);
const strings = z.record(z.string(), z.string());
const entrySchema = z.object({
  type: z.enum(["stdio", "http", "sse", "streamable-http", "streamableHttp"]).optional(),
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: strings.optional(),
  cwd: z.string().optional(),
  url: z.string().min(1).optional(),
  headers: strings.optional(),
  disabled: z.boolean().optional(),
  startup_timeout_ms: timeout.optional(),
  tool_timeout_ms: timeout.optional(),
});

/** MCP.json as a whole, in Claude Code's and Cursor's shape or VS Code's (for the editor's schema). */
export const mcpFileSchema = z.object({ mcpServers: z.record(z.string(), entrySchema).optional(), servers: z.record(z.string(), entrySchema).optional() });

/** What a server entry's name becomes part of (`mcp__<name>__<tool>`): kept readable and short. */
const NAME_MAX = 48;

/** VS Code's own keys that mean nothing here: named in a warning instead of failing the entry. */
const IGNORED_KEYS = new Set(["envFile", "dev", "gallery", "version", "description", "alwaysAllow", "autoApprove", "timeout", "trust"]);

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? `${issue.path.map(String).join(".")}: ` : "";
  return `${where}${issue.message}`;
}

/** One entry, expanded and checked; a string is the reason it cannot be used. */
function parseEntry(name: string, raw: unknown, env: Record<string, string | undefined>): McpServerConfig | string {
  if (name.trim() === "" || name.length > NAME_MAX) return `the name must be 1-${NAME_MAX} characters`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "the entry must be an object";
  const warnings: string[] = [];
  const known = new Set(Object.keys(entrySchema.shape));
  const extra: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) (known.has(key) ? rest : extra)[key] = value;
  for (const key of Object.keys(extra)) warnings.push(IGNORED_KEYS.has(key) ? `"${key}" is not used here` : `unknown field "${key}" ignored`);
  const parsed = entrySchema.safeParse(rest);
  if (!parsed.success) return parsed.error.issues.map(describeIssue).join("; ");
  const entry = parsed.data;
  const unset = new Set<string>();
  const expand = (text: string) => expandVars(text, env, unset);
  const expandAll = (record: Record<string, string> | undefined) => Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, expand(v)]));
  const common = {
    name,
    display: entry.url !== undefined && entry.command === undefined ? hideQueryValues(entry.url) : [entry.command ?? "", ...(entry.args ?? [])].join(" "),
    disabled: entry.disabled ?? false,
    startupTimeoutMs: entry.startup_timeout_ms ?? DEFAULT_STARTUP_TIMEOUT_MS,
    toolTimeoutMs: entry.tool_timeout_ms ?? DEFAULT_TOOL_TIMEOUT_MS,
    warnings,
  };
  const type = entry.type === "streamable-http" || entry.type === "streamableHttp" ? "http" : entry.type;
  let server: McpServerConfig;
  if (type === "http" || type === "sse" || (type === undefined && entry.url !== undefined && entry.command === undefined)) {
    if (entry.url === undefined) return `a "${type}" server needs a "url"`;
    if (entry.command !== undefined) warnings.push(`"command" is ignored for a remote server`);
    const url = expand(entry.url);
    let parsedUrl: URL;
    try {
      parsedUrl = new URL(url);
    } catch {
      return `"url" is not a URL: ${JSON.stringify(url)}`;
    }
    if (parsedUrl.protocol !== "http:" && parsedUrl.protocol !== "https:") return `"url" must be http or https, not ${parsedUrl.protocol}`;
    server = { ...common, transport: type ?? "http", url, headers: expandAll(entry.headers) };
  } else {
    if (entry.command === undefined) return entry.url !== undefined ? `a stdio server takes "command", not "url" (set "type": "http" for a remote one)` : `needs "command" (a program to start) or "url" (a remote server)`;
    server = {
      ...common,
      transport: "stdio",
      command: expand(entry.command),
      args: (entry.args ?? []).map(expand),
      env: expandAll(entry.env),
      cwd: entry.cwd !== undefined ? expand(entry.cwd) : null,
    };
    if (server.command.trim() === "") return `"command" is empty after expanding variables`;
  }
  for (const name of unset) warnings.push(`\${${name}} is not set (expanded to "")`);
  return server;
}

/**
 * Parses the file's text. `env` is what `${VAR}` expands from (the workbench's environment without the
 * model's keys). Invalid JSON, or no server table, is one problem with `name: null` and no servers.
 */
export function parseMcpConfig(text: string, env: Record<string, string | undefined>): McpConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { servers: [], problems: [{ name: null, reason: `${MCP_FILE} is not valid JSON: ${(err as Error).message}` }] };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { servers: [], problems: [{ name: null, reason: `${MCP_FILE} must hold an object with "mcpServers" (or VS Code's "servers")` }] };
  }
  const file = json as Record<string, unknown>;
  const table = file.mcpServers ?? file.servers;
  if (table === undefined) return { servers: [], problems: [{ name: null, reason: `${MCP_FILE} has no "mcpServers" (or "servers") object` }] };
  if (typeof table !== "object" || table === null || Array.isArray(table)) {
    return { servers: [], problems: [{ name: null, reason: `"${file.mcpServers !== undefined ? "mcpServers" : "servers"}" must be an object of named servers` }] };
  }
  const servers: McpServerConfig[] = [];
  const problems: McpConfigProblem[] = [];
  for (const [name, raw] of Object.entries(table)) {
    const server = parseEntry(name, raw, env);
    if (typeof server === "string") problems.push({ name, reason: server });
    else servers.push(server);
  }
  return { servers, problems };
}

function hideQueryValues(url: string): string {
  const at = url.indexOf("?");
  if (at === -1) return url;
  const params = url.slice(at + 1).split("&").map((pair) => (pair.includes("=") ? `${pair.slice(0, pair.indexOf("="))}=…` : pair));
  return `${url.slice(0, at)}?${params.join("&")}`;
}

/** Whether two entries start the same server (then a file change leaves it connected). */
export function sameServer(a: McpServerConfig, b: McpServerConfig): boolean {
  const { warnings: _a, ...left } = a;
  const { warnings: _b, ...right } = b;
  return JSON.stringify(left) === JSON.stringify(right);
}
