/**
 * The workbench's settings files, at the top of the data root: outside every folder the sandbox
 * mounts, so no tool call can read or rewrite them. The user edits them in the Inspector. Some can
 * hold credentials typed in directly (an MCP server's `headers` or `env`, as the MCP docs of Claude
 * Code and Cursor show): those values are masked in every API reply (secret-mask.ts), and no tool
 * reads any of these files.
 */
import { SETTINGS_FILE_NAMES } from "@mini-openclaw/protocol";

export const APPROVALS_FILE = SETTINGS_FILE_NAMES.approvals;
export const MCP_FILE = SETTINGS_FILE_NAMES.mcp;
/** The model profiles (models/model-profiles.ts): never a key, those are in KEY.md. */
export const MODELS_FILE = SETTINGS_FILE_NAMES.models;
/** Scheduled tasks and the heartbeat (tasks/tasks-file.ts). */
export const TASKS_FILE = SETTINGS_FILE_NAMES.tasks;

/** The user's hooks (hooks/hooks.ts): commands run at points of a turn, as the user. */
export const HOOKS_FILE = SETTINGS_FILE_NAMES.hooks;

/** The web search provider (web/web-search.ts); its keys are in KEY.md. */
export const WEB_FILE = SETTINGS_FILE_NAMES.web;

/** A JSON path pattern: `*` matches any one key. */
export type JsonPathPattern = readonly string[];

export interface SettingsFile {
  path: string;
  /** Where string values are credentials (masked in replies, restored on save when sent back masked). */
  secrets: readonly JsonPathPattern[];
}

export const SETTINGS_FILES: readonly SettingsFile[] = [
  { path: APPROVALS_FILE, secrets: [] },
  { path: MODELS_FILE, secrets: [] },
  { path: TASKS_FILE, secrets: [] },
  { path: HOOKS_FILE, secrets: [] },
  // A SearXNG URL may carry a password or a token in its query.
  { path: WEB_FILE, secrets: [["search", "url"]] },
  {
    path: MCP_FILE,
    // Claude Code / Cursor (`mcpServers`) and VS Code (`servers`): a server's environment, its HTTP
    // headers and its URL (a key in the query or the user part).
    secrets: ["mcpServers", "servers"].flatMap((table) => [
      [table, "*", "env", "*"],
      [table, "*", "headers", "*"],
      [table, "*", "url"],
    ]),
  },
];

/** The settings file a data-root-relative path names, or null. */
export function settingsFile(relPath: string): SettingsFile | null {
  return SETTINGS_FILES.find((file) => file.path === relPath) ?? null;
}
