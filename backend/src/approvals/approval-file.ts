/**
 * `APPROVALS.json` at the top of the data root: outside every folder the sandbox mounts, so no tool
 * call can rewrite its own permissions. The user edits it in the Inspector or through "Always allow".
 * Unlike the other settings files (settings/watched-json-file.ts) it is read at every call, not
 * watched, and a broken file is not "the last good one": every call asks (a stricter rule the user
 * just saved is in force for the very next call, and a typo never widens what runs unasked).
 */
import type { ApprovalTool, GatedTool } from "@mini-openclaw/protocol";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { APPROVALS_FILE } from "../settings/settings-files.js";
import { parseJsonFile } from "../settings/watched-json-file.js";
import { isUnreadable, readConfinedText } from "../paths/read-confined-file.js";
import { type ApprovalPolicy, DEFAULT_POLICY, isGatedTool, mcpRuleProblem, policySchema } from "./approval-policy.js";

const MAX_BYTES = 256 * 1024;

export interface LoadedPolicy {
  policy: ApprovalPolicy;
  /** Why the file was not used as written; then every call asks (`FAIL_CLOSED`), never "off". */
  problem: string | null;
}

/**
 * What stands in for a broken file: every governed call asks, even one the defaults would run
 * (a typo must not widen what runs unasked); the defaults' deny rules still refuse.
 */
const asks = (rules: ApprovalPolicy["tools"][GatedTool]) => ({ mode: "ask" as const, allow: [], deny: rules.deny });
export const FAIL_CLOSED: ApprovalPolicy = {
  ...DEFAULT_POLICY,
  tools: {
    terminal: asks(DEFAULT_POLICY.tools.terminal),
    python_repl: asks(DEFAULT_POLICY.tools.python_repl),
    fetch_url: asks(DEFAULT_POLICY.tools.fetch_url),
    delegate: asks(DEFAULT_POLICY.tools.delegate),
    schedule: asks(DEFAULT_POLICY.tools.schedule),
    web_search: asks(DEFAULT_POLICY.tools.web_search),
    browser: asks(DEFAULT_POLICY.tools.browser),
  },
  mcp: asks(DEFAULT_POLICY.mcp),
};

const render = (policy: ApprovalPolicy) => `${JSON.stringify(policy, null, 2)}\n`;

/** The policy in force: the file; the defaults when it is missing; when it is broken, every call asks (the file is left as it is). */
export async function loadPolicy(dataRoot: string): Promise<LoadedPolicy> {
  let text: string;
  try {
    text = (await readConfinedText(dataRoot, APPROVALS_FILE, MAX_BYTES)).content;
  } catch (err) {
    if (isUnreadable(err) && err.reason === "missing") return { policy: DEFAULT_POLICY, problem: null };
    return { policy: FAIL_CLOSED, problem: `${APPROVALS_FILE} cannot be read (${(err as Error).message}); every call asks until it is fixed` };
  }
  const parsed = parseJsonFile(APPROVALS_FILE, text, policySchema);
  if ("problem" in parsed) return { policy: FAIL_CLOSED, problem: `${parsed.problem}; every call asks until it is fixed` };
  return { policy: parsed.value, problem: mcpRuleProblem(parsed.value) };
}

/** Writes the defaults on first start, so the file is there to read and edit. */
export async function ensurePolicyFile(dataRoot: string): Promise<void> {
  try {
    await readConfinedText(dataRoot, APPROVALS_FILE, MAX_BYTES);
  } catch (err) {
    if (isUnreadable(err) && err.reason === "missing") await writeConfinedAtomic(dataRoot, APPROVALS_FILE, render(DEFAULT_POLICY));
  }
}

/** Adds an allow rule ("Always allow"); a broken file is left alone and the rule is not saved. MCP tools' rules go to the `mcp` section. */
export async function addAllowRule(dataRoot: string, tool: ApprovalTool, rule: string): Promise<boolean> {
  const { policy, problem } = await loadPolicy(dataRoot);
  if (problem && policy === FAIL_CLOSED) return false;
  const current = isGatedTool(tool) ? policy.tools[tool] : policy.mcp;
  if (current.allow.includes(rule)) return true;
  // An `ask` tool never uses allow rules: the user who always allows something means ask-unlisted.
  const mode = current.mode === "ask" ? "ask-unlisted" : current.mode;
  const updated = { ...current, mode, allow: [...current.allow, rule] };
  await writeConfinedAtomic(dataRoot, APPROVALS_FILE, render(isGatedTool(tool) ? { ...policy, tools: { ...policy.tools, [tool]: updated } } : { ...policy, mcp: updated }));
  return true;
}
