/**
 * A skill's `allowed-tools`, in the forms the public skill collections write it (Claude Code's tool
 * names, `Bash(git:*)`, spaces or commas, a YAML list) and in ours (core tool names), mapped to the
 * core tools that serve each. A name with no core equivalent is a warning; it never turns the list
 * into "nothing allowed".
 */
import { commandAdmittedBy } from "../shell/command-rules.js";
import { isToolName } from "../tool-names/core-tool-names.js";
import { isMcpToolName } from "../tool-names/mcp-tool-names.js";

export interface ToolAllowance {
  /** Core tools the skill allows. */
  tools: string[];
  /** For `terminal`: the commands it may start with; null when any command is allowed. */
  commands: string[] | null;
}

/** Claude Code's tool names, and the core tools (and commands, for the search tools) that serve them. */
const ECOSYSTEM: Record<string, { tools: string[]; commands?: string[] }> = {
  read: { tools: ["read_file"] },
  notebookread: { tools: ["read_file"] },
  grep: { tools: ["terminal"], commands: ["grep", "rg"] },
  glob: { tools: ["terminal"], commands: ["find", "ls"] },
  ls: { tools: ["terminal"], commands: ["ls"] },
  bash: { tools: ["terminal"] },
  write: { tools: ["python_repl"] },
  edit: { tools: ["python_repl"] },
  multiedit: { tools: ["python_repl"] },
  notebookedit: { tools: ["python_repl"] },
  webfetch: { tools: ["fetch_url"] },
  websearch: { tools: ["fetch_url"] },
  task: { tools: ["delegate"] },
  agent: { tools: ["delegate"] },
};

/** Entries of the field: split on commas and spaces, except inside parentheses (`Bash(git add:*)`). */
function entries(value: unknown): string[] | null {
  const parts = typeof value === "string" ? [value] : Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : null;
  if (!parts) return null;
  const out: string[] = [];
  for (const part of parts) {
    let depth = 0;
    let current = "";
    for (const c of part) {
      if (c === "(") depth++;
      if (c === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && (c === "," || /\s/.test(c))) {
        if (current.trim()) out.push(current.trim());
        current = "";
      } else current += c;
    }
    if (current.trim()) out.push(current.trim());
  }
  return out;
}

/** `git:*`, `git *`, `git` → `git`; `npm run test:*` → `npm run test`. */
const commandPrefix = (pattern: string) => pattern.trim().replace(/:\*$|\s*\*$/, "").trim();

export function parseAllowedTools(value: unknown): { allowance: ToolAllowance | null; warnings: string[] } | { error: string } {
  const list = entries(value);
  if (list === null) return { error: "'allowed-tools' must be a list of strings or a space- or comma-separated string" };
  const tools = new Set<string>();
  const commands = new Set<string>();
  let anyCommand = false;
  const unknown: string[] = [];
  for (const entry of list) {
    const scoped = /^([A-Za-z_]+)\((.*)\)$/.exec(entry);
    const name = scoped ? scoped[1] : entry;
    if (scoped && name.toLowerCase() === "bash") {
      const prefix = commandPrefix(scoped[2]);
      tools.add("terminal");
      if (prefix) commands.add(prefix);
      else anyCommand = true;
      continue;
    }
    // An MCP tool or server (`mcp__server__tool`, `mcp__server`, `mcp__server__*`), as Claude Code writes them.
    if (!scoped && isMcpToolName(entry) && entry !== "mcp__*") {
      tools.add(entry);
      continue;
    }
    if (isToolName(name)) {
      tools.add(name);
      if (name === "terminal") anyCommand = true;
      continue;
    }
    const mapped = ECOSYSTEM[name.toLowerCase()];
    if (!mapped) {
      unknown.push(entry);
      continue;
    }
    for (const tool of mapped.tools) tools.add(tool);
    if (mapped.tools.includes("terminal")) {
      if (mapped.commands) for (const c of mapped.commands) commands.add(c);
      else anyCommand = true;
    }
  }
  const warnings = unknown.length ? [`allowed-tools names tools with no core equivalent (ignored): ${unknown.join(", ")}`] : [];
  if (tools.size === 0 && list.length > 0) {
    warnings.push("no allowed-tools entry maps to a core tool, so the skill runs with every tool");
    return { allowance: null, warnings };
  }
  return { allowance: { tools: [...tools], commands: tools.has("terminal") && !anyCommand ? [...commands] : null }, warnings };
}

/**
 * Whether `command` is one the allowance's command prefixes admit (null: any), by the same rules as
 * approvals' allow list (shell/command-rules.ts): a plain line each of whose commands starts with a
 * prefix's words, never a form that does more than it shows (`find -delete`, `-exec`, `sed -i`).
 */
export function commandAllowed(command: string, prefixes: string[] | null): boolean {
  return prefixes === null || commandAdmittedBy(command, prefixes) !== null;
}
