/**
 * The approval policy (`APPROVALS.json` at the top of the data root, where the sandbox cannot reach):
 * per governed tool a mode and allow and deny rules, and what a call's decision is under it. Pure
 * functions: reading and writing the file is approval-file.ts.
 */
import { type GatedTool, gatedToolSchema } from "@mini-openclaw/protocol";
import { z } from "zod";
import { commandAdmittedBy, globRegExp, isGlob } from "../shell/command-rules.js";
import { plainCommands } from "../shell/plain-commands.js";
import { runsCodeOrCommands, unsafeForm } from "../shell/unsafe-forms.js";
import { mcpRuleMatches } from "../tool-names/mcp-tool-names.js";
import { describeRequest, type ScheduleRequest, scheduleRule } from "../schedules/schedule-request.js";

export const GATED_TOOLS: readonly GatedTool[] = gatedToolSchema.options;

export const isGatedTool = (name: string): name is GatedTool => (GATED_TOOLS as readonly string[]).includes(name);

const toolPolicy = z.object({
  /** off: run; ask: always ask; ask-unlisted: ask unless an allow rule matches; deny: never run. */
  mode: z.enum(["off", "ask", "ask-unlisted", "deny"]),
  allow: z.array(z.string().min(1).max(500)).max(1000).default([]),
  deny: z.array(z.string().min(1).max(500)).max(1000).default([]),
});
export type ToolPolicy = z.infer<typeof toolPolicy>;

/**
 * MCP tools, by rule: `mcp__server__tool`, or a whole server as `mcp__server` or `mcp__server__*`.
 * Under `ask-unlisted` (the default) a tool its server marks `readOnlyHint` runs unasked too.
 */
const DEFAULT_MCP: ToolPolicy = { mode: "ask-unlisted", allow: [], deny: [] };

export const policySchema = z.object({
  version: z.literal(1),
  /** How long a request waits for the user before it is denied. */
  timeout_seconds: z.number().int().min(1).max(86_400).default(600),
  tools: z.object({
    terminal: toolPolicy,
    python_repl: toolPolicy,
    fetch_url: toolPolicy,
    delegate: toolPolicy,
    // Added after the file's first version: a file without it asks, as the default does.
    schedule: toolPolicy.default({ mode: "ask", allow: [], deny: [] }),
    // Added later still: a file without it lets searches run, as the default does.
    web_search: toolPolicy.default({ mode: "off", allow: [], deny: [] }),
    // And the browser: a file without it asks before each first visit to a host in a session, as the default does.
    browser: toolPolicy.default({ mode: "ask-unlisted", allow: [], deny: [] }),
  }),
  mcp: toolPolicy.default(DEFAULT_MCP),
});
export type ApprovalPolicy = z.infer<typeof policySchema>;

/**
 * What a careful user picks for a local machine: commands and code ask unless a read-only command
 * is allowed; destructive ones are refused even where a broader rule allows; web reads and
 * delegation run (the sandbox and the fetch guard already confine them).
 */
export const DEFAULT_POLICY: ApprovalPolicy = {
  version: 1,
  timeout_seconds: 600,
  tools: {
    terminal: {
      mode: "ask-unlisted",
      // Commands that only read. A rule admits a command's plain forms only: never `find -delete`,
      // `git log --output=x`, `sed -i`, `sort -o` or a redirection into a file (shell/unsafe-forms.ts).
      allow: [
        "ls", "pwd", "cd", "cat", "head", "tail", "wc", "grep", "rg", "find", "echo", "printf", "sort", "uniq", "cut", "tr", "nl", "sed",
        "stat", "file", "du", "df", "tree", "which", "basename", "dirname", "realpath", "readlink", "date", "true", "false", "test",
        "diff", "cmp", "comm", "seq", "jq", "md5sum", "sha1sum", "sha256sum", "tac", "rev", "paste", "column", "fold", "od", "xxd",
        "base64", "whoami", "id", "uname", "git status", "git log", "git diff", "git show",
      ],
      deny: ["rm -rf", "rm -fr", "git push --force", "git push -f", "git reset --hard", "sudo", "mkfs", "dd if=", "chmod -R 777", "> /dev/sd"],
    },
    python_repl: { mode: "ask-unlisted", allow: [], deny: ["shutil.rmtree", "os.system("] },
    fetch_url: { mode: "off", allow: [], deny: [] },
    delegate: { mode: "off", allow: [], deny: [] },
    // A task runs later with nobody watching: the user sees each one the agent sets.
    schedule: { mode: "ask", allow: [], deny: [] },
    // A query goes to the provider the user chose, and reads nothing of theirs.
    web_search: { mode: "off", allow: [], deny: [] },
    // A page can be anything: the user sees each host the browser first goes to in a session (host rules as fetch_url's).
    browser: { mode: "ask-unlisted", allow: [], deny: [] },
  },
  mcp: DEFAULT_MCP,
};

/** What a rule is matched against: the command, the code, the URL, `role: task`, the schedule, or the query. */
export function subjectOf(tool: GatedTool, input: Record<string, unknown>): string {
  switch (tool) {
    case "terminal":
      return String(input.command ?? "");
    case "python_repl":
      return String(input.code ?? "");
    case "fetch_url":
      return String(input.url ?? "");
    case "delegate":
      return `${String(input.agent ?? "")}: ${String(input.task ?? "")}`;
    case "schedule":
      return describeRequest(input as ScheduleRequest);
    case "web_search":
      return String(input.query ?? "");
    case "browser":
      return String(input.url ?? "");
  }
}

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** `git status` allows `git status` and `git status -s`, never `git statusx` or `git push`. */
function startsWithWords(text: string, prefix: string): boolean {
  const p = collapse(prefix);
  return text === p || text.startsWith(`${p} `);
}

/** The host a URL names, lower-cased; null when it is not a URL. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** A host rule: `example.com` is that host; `*.example.com` its subdomains. */
function hostMatches(host: string, pattern: string): boolean {
  const p = pattern.toLowerCase().trim();
  return p.startsWith("*.") ? host.endsWith(p.slice(1)) : host === p;
}

/** Tools whose rules are hosts (`example.com`, `*.example.com`), matched against the URL's. */
const byHost = (tool: GatedTool) => tool === "fetch_url" || tool === "browser";

function allowed(tool: GatedTool, subject: string, rule: string): boolean {
  if (byHost(tool)) {
    const host = hostOf(subject);
    return host !== null && hostMatches(host, rule);
  }
  // Code is matched whole: `print("hello")` is not `print("hello")` and whatever follows it.
  if (tool === "python_repl") return isGlob(rule) ? globRegExp(rule.trim(), false).test(subject.trim()) : rule.trim() === subject.trim();
  return isGlob(rule) ? globRegExp(rule, true).test(collapse(subject)) : startsWithWords(collapse(subject), rule);
}

/** A deny rule matches anywhere in the subject (`sudo rm -rf /` holds `rm -rf`); hosts as for allow. */
function denied(tool: GatedTool, subject: string, rule: string): boolean {
  if (byHost(tool)) {
    const host = hostOf(subject);
    return host !== null && hostMatches(host, rule);
  }
  if (isGlob(rule)) return globRegExp(`*${rule}*`, true).test(collapse(subject));
  return collapse(subject).includes(collapse(rule));
}

export type Verdict =
  | { action: "run"; rule?: string }
  | { action: "deny"; rule?: string; why: string }
  | { action: "ask" };

/** The decision for a call under the policy, before anyone is asked. */
export function decide(policy: ApprovalPolicy, tool: GatedTool, input: Record<string, unknown>): Verdict {
  const { mode, allow, deny } = policy.tools[tool];
  if (mode === "off") return { action: "run" };
  if (mode === "deny") return { action: "deny", why: `${tool} is set to deny in APPROVALS.json` };
  const subject = subjectOf(tool, input);
  // A deny rule beats any allow rule, however broad.
  const refusedBy = deny.find((rule) => denied(tool, subject, rule));
  if (refusedBy !== undefined) return { action: "deny", rule: refusedBy, why: `it matches the deny rule "${refusedBy}"` };
  if (mode === "ask") return { action: "ask" };
  if (tool === "terminal") {
    const rules = commandAdmittedBy(subject, allow);
    return rules ? { action: "run", rule: rules.join(", ") } : { action: "ask" };
  }
  if (tool === "schedule") {
    // Exactly this schedule and prompt: no glob, no prefix (the agent writes every word of it).
    const exact = scheduleRule(input as ScheduleRequest);
    return allow.some((rule) => rule === exact) ? { action: "run", rule: exact } : { action: "ask" };
  }
  const allowedBy = allow.find((rule) => allowed(tool, subject, rule));
  return allowedBy !== undefined ? { action: "run", rule: allowedBy } : { action: "ask" };
}

/**
 * The allow rule "Always allow" proposes: the command's first words, the host, the role, the exact
 * code. Whenever first words would cover what the user did not see (`bash -c '…'`, `python3 -c`,
 * a writing flag, several commands, anything not plain), the exact command.
 */
export function proposeRule(tool: GatedTool, input: Record<string, unknown>): string {
  const subject = subjectOf(tool, input);
  switch (tool) {
    case "terminal": {
      const parsed = plainCommands(subject);
      if (!parsed.plain || parsed.commands.length !== 1) return subject.trim();
      const argv = parsed.commands[0];
      if (runsCodeOrCommands(argv) || unsafeForm(argv) !== null) return subject.trim();
      const words = argv.map((w) => w.value);
      if (words.some((w) => /\s|[*?]/.test(w))) return subject.trim();
      // `git status -s` → `git status`; `python3 x.py` → `python3 x.py`; `ls -la` → `ls`; `expr 1 + 1` → `expr`.
      const keep = words.length > 1 && !/^[-+0-9]/.test(words[1]) ? 2 : 1;
      return words.slice(0, keep).join(" ");
    }
    case "fetch_url":
    case "browser":
      return hostOf(subject) ?? subject;
    case "delegate":
      return `${String(input.agent ?? "")}:*`;
    case "schedule":
      return scheduleRule(input as ScheduleRequest);
    case "python_repl":
      // The code itself; a `*` or `?` in it stands for itself as one any-character (never a newline).
      return subject.trim().replace(/[*?]/g, "?");
    case "web_search":
      // Every search: a query names nothing of the user's (deny rules still refuse words).
      return "*";
  }
}

/** A rule that would name every MCP server there will ever be: ignored, and why is shown. */
export const isEveryServerRule = (rule: string) => rule.trim() === "mcp__*" || rule.trim() === "mcp__";

/** Why rules of the `mcp` section are ignored, or null. */
export function mcpRuleProblem(policy: ApprovalPolicy): string | null {
  const broad = [...policy.mcp.allow, ...policy.mcp.deny].filter(isEveryServerRule);
  if (broad.length === 0) return null;
  return `APPROVALS.json: the mcp rule "${broad[0]}" is ignored: it would cover every MCP server there will ever be; name a server (mcp__server or mcp__server__*) or a tool (mcp__server__tool)`;
}

/** The decision for an MCP tool call: deny rules first, then the mode, allow rules and the server's read-only mark. */
export function decideMcp(policy: ApprovalPolicy, call: { name: string; server: string; readOnly: boolean }): Verdict {
  const { mode, allow, deny } = policy.mcp;
  if (mode === "off") return { action: "run" };
  if (mode === "deny") return { action: "deny", why: "MCP tools are set to deny in APPROVALS.json" };
  const matches = (rule: string) => !isEveryServerRule(rule) && mcpRuleMatches(rule, call.name, call.server);
  const refusedBy = deny.find(matches);
  if (refusedBy !== undefined) return { action: "deny", rule: refusedBy, why: `it matches the deny rule "${refusedBy}"` };
  if (mode === "ask") return { action: "ask" };
  const allowedBy = allow.find(matches);
  if (allowedBy !== undefined) return { action: "run", rule: allowedBy };
  return call.readOnly ? { action: "run", rule: "readOnlyHint" } : { action: "ask" };
}
