/**
 * `APPROVALS.json` at the top of the data root: outside every folder the sandbox mounts, so no tool
 * call can rewrite its own permissions. The user edits it in the Inspector or through "Always allow".
 */
import type { GatedTool } from "@mini-openclaw/protocol";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { isUnreadable, readConfinedText } from "../paths/read-confined-file.js";
import { type ApprovalPolicy, DEFAULT_POLICY, policySchema } from "./approval-policy.js";

export const APPROVALS_FILE = "APPROVALS.json";
const MAX_BYTES = 256 * 1024;

export interface LoadedPolicy {
  policy: ApprovalPolicy;
  /** Why the file was not used as written; the defaults (which ask) stand in, never "off". */
  problem: string | null;
}

const render = (policy: ApprovalPolicy) => `${JSON.stringify(policy, null, 2)}\n`;

/** The policy in force: the file, or the defaults when it is missing or broken (failing closed: they ask). */
export async function loadPolicy(dataRoot: string): Promise<LoadedPolicy> {
  let text: string;
  try {
    text = (await readConfinedText(dataRoot, APPROVALS_FILE, MAX_BYTES)).content;
  } catch (err) {
    if (isUnreadable(err) && err.reason === "missing") return { policy: DEFAULT_POLICY, problem: null };
    return { policy: DEFAULT_POLICY, problem: `${APPROVALS_FILE} cannot be read (${(err as Error).message}); the default policy applies` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { policy: DEFAULT_POLICY, problem: `${APPROVALS_FILE} is not valid JSON (${(err as Error).message}); the default policy applies` };
  }
  const parsed = policySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { policy: DEFAULT_POLICY, problem: `${APPROVALS_FILE}: ${issue.path.join(".")} ${issue.message}; the default policy applies` };
  }
  return { policy: parsed.data, problem: null };
}

/** Writes the defaults on first start, so the file is there to read and edit. */
export async function ensurePolicyFile(dataRoot: string): Promise<void> {
  try {
    await readConfinedText(dataRoot, APPROVALS_FILE, MAX_BYTES);
  } catch (err) {
    if (isUnreadable(err) && err.reason === "missing") await writeConfinedAtomic(dataRoot, APPROVALS_FILE, render(DEFAULT_POLICY));
  }
}

/** Adds an allow rule ("Always allow"); a broken file is left alone and the rule is not saved. */
export async function addAllowRule(dataRoot: string, tool: GatedTool, rule: string): Promise<boolean> {
  const { policy, problem } = await loadPolicy(dataRoot);
  if (problem) return false;
  const current = policy.tools[tool];
  if (current.allow.includes(rule)) return true;
  // An `ask` tool never uses allow rules: the user who always allows something means ask-unlisted.
  const mode = current.mode === "ask" ? "ask-unlisted" : current.mode;
  await writeConfinedAtomic(dataRoot, APPROVALS_FILE, render({ ...policy, tools: { ...policy.tools, [tool]: { ...current, mode, allow: [...current.allow, rule] } } }));
  return true;
}
