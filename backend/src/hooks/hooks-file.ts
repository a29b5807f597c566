/**
 * `HOOKS.json`, in the shape of Claude Code's settings (`.claude/settings.json`, a plugin's
 * `hooks/hooks.json`): `{ "hooks": { "<Event>": [ { "matcher": "...", "hooks": [ { "type": "command",
 * "command": "...", "timeout": 30 } ] } ] } }`. Anything else such a file holds (`permissions`, `env`...)
 * is another tool's and is left alone, so a Claude Code file pasted as it is reads. The file is the
 * user's, outside every folder the sandbox mounts; a skill's hooks file has the same shape.
 */
import { type HookEventName, hookEventNameSchema, hookEventNames } from "@mini-openclaw/protocol";
import { RE2JS } from "re2js";
import { z } from "zod";
import { type Parsed, parseJsonFile } from "../settings/watched-json-file.js";

/** More than this many hooks is a mistake (or an attack on the server's time), not a configuration. */
export const MAX_HOOKS = 200;
/** Claude Code's default: a hook is killed after a minute. */
export const DEFAULT_TIMEOUT_SECONDS = 60;
const MAX_TIMEOUT_SECONDS = 3600;

const hookCommandSchema = z.looseObject({
  /** `command` runs; Claude Code's other kinds (`prompt`, `http`) are listed as not run here. */
  type: z.string(),
  command: z.string().max(8192).optional(),
  /** Seconds. */
  timeout: z.number().positive().max(MAX_TIMEOUT_SECONDS).optional(),
});

const matcherGroupSchema = z.looseObject({
  /** A tool name, names joined by `|`, or a regular expression (RE2, matched whole); empty or `*`: every one. */
  matcher: z.string().max(1000).optional(),
  hooks: z.array(hookCommandSchema),
});

export const hooksFileSchema = z
  .looseObject({ hooks: z.partialRecord(hookEventNameSchema, z.array(matcherGroupSchema)).optional() })
  .meta({ title: "HOOKS.json", description: "Commands the workbench runs at points of a turn, in Claude Code's hooks format." });
export type HooksFile = z.infer<typeof hooksFileSchema>;

/** One hook command as read from a file, before it is checked against where it may run from. */
export interface HookSpec {
  id: string;
  event: HookEventName;
  matcher?: string;
  command: string;
  timeoutSeconds: number;
  source: string;
  /** Why it never runs (a kind other than `command`). */
  refused?: string;
  /** A skill's hooks: the folder they run from (`CLAUDE_PLUGIN_ROOT`), the trusted copy. */
  pluginRoot?: string;
}

const unknownEventHint = (issue: z.core.$ZodIssue) =>
  issue.path.length <= 1 && issue.path[0] === "hooks" && (issue.code === "unrecognized_keys" || issue.code === "invalid_key") ? ` (the events are ${hookEventNames.join(", ")})` : "";

/** A matcher that RE2 cannot compile, or null. */
function matcherProblem(matcher: string): string | null {
  if (matcher === "" || matcher === "*") return null;
  try {
    RE2JS.compile(matcher);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** A hooks file's text as its hooks (`source` names it in ids and the view), or why it cannot be used. */
export function parseHooksFile(name: string, source: string, text: string): Parsed<HookSpec[]> {
  const parsed = parseJsonFile(name, text, hooksFileSchema, unknownEventHint);
  if ("problem" in parsed) return parsed;
  const specs: HookSpec[] = [];
  for (const event of hookEventNames) {
    const groups = parsed.value.hooks?.[event] ?? [];
    for (const [g, group] of groups.entries()) {
      const matcher = group.matcher;
      const bad = matcher === undefined ? null : matcherProblem(matcher);
      if (bad) return { problem: `${name}: hooks.${event}.${g}.matcher is not a regular expression RE2 reads (${bad})` };
      for (const [h, hook] of group.hooks.entries()) {
        const id = `${source}#${event}/${g}/${h}`;
        const base = { id, event, ...(matcher !== undefined ? { matcher } : {}), timeoutSeconds: hook.timeout ?? DEFAULT_TIMEOUT_SECONDS, source };
        if (hook.type !== "command") specs.push({ ...base, command: hook.command ?? "", refused: `a hook of type "${hook.type}" is not run here: only "command" hooks are` });
        else if (!hook.command?.trim()) return { problem: `${name}: hooks.${event}.${g}.hooks.${h}: a command hook needs a command` };
        else specs.push({ ...base, command: hook.command });
        if (specs.length > MAX_HOOKS) return { problem: `${name} has more than ${MAX_HOOKS} hooks; no more than ${MAX_HOOKS} are run` };
      }
    }
  }
  return { value: specs };
}

/**
 * Whether a matcher takes one of the names an occasion goes by (a tool's own name and its Claude
 * Code names; a session's start source...). RE2, whole match: linear whatever the pattern.
 */
export function matcherMatches(matcher: string | undefined, names: readonly string[]): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  let compiled = compiledMatchers.get(matcher);
  if (!compiled) {
    compiled = RE2JS.compile(matcher);
    if (compiledMatchers.size >= MAX_HOOKS * 2) compiledMatchers.clear();
    compiledMatchers.set(matcher, compiled);
  }
  return names.some((name) => compiled.matcher(name).matches());
}

const compiledMatchers = new Map<string, RE2JS>();
