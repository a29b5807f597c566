/**
 * The user's hooks: `HOOKS.json` (watched; a broken file leaves the last good hooks in force) and the
 * hooks of skills the user trusted. `run` runs the hooks an occasion matches, all at once, each as
 * the user's own process (outside the sandbox, in the data root, with a small environment that never
 * holds a model key), and answers each run as a `hook` event; the turn's code decides what the runs
 * mean together. A failing hook never fails the turn: it is a run with status `failed`.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { ConfiguredHook, HookEventName, HookRunEvent, HookRunRecord, SkillHooks } from "@mini-openclaw/protocol";
import { SESSIONS_DIR } from "../config/data-root-layout.js";
import { HOOKS_FILE } from "../settings/settings-files.js";
import { WatchedJsonFile } from "../settings/watched-json-file.js";
import { type HookSpec, matcherMatches, parseHooksFile } from "./hooks-file.js";
import { readHookOutput } from "./hook-output.js";
import { writableScriptProblem } from "./hook-script-location.js";
import { runHookCommand } from "./run-hook-command.js";
import { SkillHooksStore } from "./skill-hooks.js";

/** Claude Code's cap on what a hook prints that is read. */
export const MAX_OUTPUT_BYTES = 1024 * 1024;
/** What of a run's output an event carries for showing (the whole is never stored). */
const SHOWN_OUTPUT_CHARS = 8 * 1024;
const KEPT_RUNS = 100;
const MAX_FILE_BYTES = 1024 * 1024;

/** An occasion hooks run on: its event, what a matcher is tried against, and the event's own fields. */
export interface HookOccasion {
  event: HookEventName;
  /** The names the occasion goes by for matchers (a tool's names; a session start's source). Absent: matchers are not asked. */
  names?: readonly string[];
  /** The event's fields on the hook's stdin (`tool_name`, `tool_input`, `prompt`...). */
  fields: Record<string, unknown>;
  sessionId?: string;
  turn?: number;
  /** The tool call it acts on. */
  callId?: string;
}

export interface HooksDeps {
  dataRoot: string;
  log: { warn(obj: object, msg: string): void };
  /** Removes the workbench's secrets from what a hook printed before it is shown or kept. */
  scrub: (text: string) => string;
  /** The hooks or their runs changed (pages showing them read them again). */
  onChange: () => void;
  watch?: boolean;
}

/** A hook ready to run (or refused, with why). */
type Runnable = HookSpec & { refused?: string };

export class Hooks {
  private readonly file: WatchedJsonFile<HookSpec[]>;
  private readonly recent: HookRunRecord[] = [];
  /** Refusals by command, worked out once per command while the hooks stay as they are. */
  private refusals = new Map<string, string | null>();
  private changeTimer: NodeJS.Timeout | null = null;
  private readonly skillHooks: SkillHooksStore;

  constructor(private readonly deps: HooksDeps) {
    this.skillHooks = new SkillHooksStore(deps.dataRoot);
    this.file = new WatchedJsonFile({
      dataRoot: deps.dataRoot,
      name: HOOKS_FILE,
      maxBytes: MAX_FILE_BYTES,
      parse: (text) => parseHooksFile(HOOKS_FILE, HOOKS_FILE, text),
      missing: [],
      lastGood: "the last good hooks stay in force",
      log: deps.log,
      onChange: () => {
        this.refusals = new Map();
        deps.onChange();
      },
      ...(deps.watch !== undefined ? { watch: deps.watch } : {}),
    });
  }

  async start(): Promise<void> {
    await this.file.start();
    await this.skillHooks.refresh();
  }

  /** Looks at the skills' hook files again: a turn's start does, so a changed file is untrusted from then on. */
  async refreshSkills(): Promise<void> {
    await this.skillHooks.refresh();
    this.refusals = new Map();
  }

  /** The skills that ship hooks, and whether the user trusts them as they are. */
  skills(): SkillHooks[] {
    return this.skillHooks.list();
  }

  async trustSkill(skill: string, digest: string, trusted: boolean): Promise<void> {
    await this.skillHooks.setTrust(skill, digest, trusted);
    this.refusals = new Map();
    this.deps.onChange();
  }

  close(): void {
    this.file.close();
    if (this.changeTimer) clearTimeout(this.changeTimer);
  }

  /** Reads HOOKS.json again now (tests; the watcher does it otherwise). */
  reload(): Promise<void> {
    return this.file.reload();
  }

  /** Why HOOKS.json is not used as written, or null. */
  get problem(): string | null {
    return this.file.problem;
  }

  /** Every hook configured, in order (HOOKS.json's, then trusted skills'), with why one does not run. */
  list(): Runnable[] {
    return [...this.file.value, ...this.skillHooks.specs()].map((spec) => {
      if (spec.refused) return spec;
      if (!this.refusals.has(spec.command)) this.refusals.set(spec.command, writableScriptProblem(spec.command, this.deps.dataRoot));
      const refused = this.refusals.get(spec.command);
      return refused ? { ...spec, refused: `refused: ${refused}` } : spec;
    });
  }

  /** The hooks as the API shows them. */
  configured(): ConfiguredHook[] {
    return this.list().map((hook) => ({
      id: hook.id,
      event: hook.event,
      ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
      command: hook.command,
      timeout_seconds: hook.timeoutSeconds,
      source: hook.source,
      ...(hook.refused ? { refused: hook.refused } : {}),
    }));
  }

  /** Whether any hook would run on this event (so a turn skips building its input when none would). */
  has(event: HookEventName): boolean {
    return this.list().some((hook) => hook.event === event && !hook.refused);
  }

  /** The latest runs, newest first. */
  runs(): HookRunRecord[] {
    return [...this.recent].reverse();
  }

  /**
   * Runs every hook the occasion matches, at once, and answers their runs in configuration order;
   * `emit` gets each run as it ends. A refused hook never runs and is not answered here (the view
   * shows why).
   */
  async run(occasion: HookOccasion, emit?: (run: HookRunEvent) => void): Promise<HookRunEvent[]> {
    const matching = this.list().filter((hook) => hook.event === occasion.event && !hook.refused && (occasion.names === undefined || matcherMatches(hook.matcher, occasion.names)));
    if (matching.length === 0) return [];
    return Promise.all(matching.map((hook) => this.runOne(hook, occasion, emit)));
  }

  /** One hook, now, against an occasion (the Hooks view's Test): recorded as a test run. */
  async test(id: string, occasion: HookOccasion): Promise<HookRunRecord | null> {
    const hook = this.list().find((h) => h.id === id);
    if (!hook) return null;
    if (hook.refused) return { ...this.refusedRun(hook, occasion), test: true };
    const run = await this.execute(hook, occasion);
    const record = { ...run, ...(occasion.sessionId ? { session_id: occasion.sessionId } : {}), test: true };
    this.keep(record);
    return record;
  }

  private refusedRun(hook: Runnable, occasion: HookOccasion): HookRunEvent {
    return { type: "hook", id: randomUUID(), event: occasion.event, command: hook.command, source: hook.source, started_at: Date.now(), duration_ms: 0, exit_code: null, status: "failed", error: hook.refused, output: "" };
  }

  private async runOne(hook: Runnable, occasion: HookOccasion, emit?: (run: HookRunEvent) => void): Promise<HookRunEvent> {
    const run = await this.execute(hook, occasion);
    this.keep({ ...run, ...(occasion.sessionId ? { session_id: occasion.sessionId } : {}) });
    if (run.status === "failed") this.deps.log.warn({ hook: hook.id, error: run.error }, "hook failed");
    emit?.(run);
    return run;
  }

  private async execute(hook: Runnable, occasion: HookOccasion): Promise<HookRunEvent> {
    const startedAt = Date.now();
    const { dataRoot } = this.deps;
    const input = {
      session_id: occasion.sessionId ?? "",
      transcript_path: occasion.sessionId ? join(dataRoot, SESSIONS_DIR, `${occasion.sessionId}.jsonl`) : "",
      cwd: dataRoot,
      hook_event_name: occasion.event,
      permission_mode: "default",
      ...(occasion.turn !== undefined ? { turn: occasion.turn } : {}),
      ...occasion.fields,
    };
    const result = await runHookCommand(hook.command, {
      cwd: dataRoot,
      env: hookEnvironment(dataRoot, occasion.event, hook),
      stdin: JSON.stringify(input),
      timeoutMs: hook.timeoutSeconds * 1000,
      maxBytes: MAX_OUTPUT_BYTES,
    });
    const verdict = readHookOutput(occasion.event, result);
    const scrub = this.deps.scrub;
    const printed = [result.stdout.trim(), result.stderr.trim()].filter(Boolean).join("\n");
    const output = verdict.suppressOutput ? "" : scrub(printed.length > SHOWN_OUTPUT_CHARS ? `${printed.slice(0, SHOWN_OUTPUT_CHARS)}\n[${printed.length - SHOWN_OUTPUT_CHARS} more characters not shown]` : printed);
    return {
      type: "hook",
      id: randomUUID(),
      event: occasion.event,
      ...(occasion.callId ? { call_id: occasion.callId } : {}),
      command: hook.command,
      source: hook.source,
      ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
      started_at: startedAt,
      duration_ms: Math.round(result.durationMs),
      exit_code: result.exitCode,
      status: verdict.status,
      ...(verdict.decision ? { decision: verdict.decision } : {}),
      ...(verdict.reason ? { reason: scrub(verdict.reason) } : {}),
      ...(verdict.additionalContext ? { additional_context: scrub(verdict.additionalContext) } : {}),
      ...(verdict.updatedInput ? { updated_input: verdict.updatedInput } : {}),
      ...(verdict.error ? { error: verdict.error } : {}),
      output,
    };
  }

  private keep(record: HookRunRecord): void {
    this.recent.push(record);
    if (this.recent.length > KEPT_RUNS) this.recent.shift();
    // Runs can come many a second (a hook on every call): pages hear of them at most once a second.
    this.changeTimer ??= setTimeout(() => {
      this.changeTimer = null;
      this.deps.onChange();
    }, 1000).unref();
  }
}

/**
 * What a hook's process gets as its environment: enough to run a script (the server's PATH, HOME,
 * the locale), where it runs, and the event, under Claude Code's names too. Never the workbench's
 * keys, nor anything else of the server's environment.
 */
export function hookEnvironment(dataRoot: string, event: HookEventName, hook: HookSpec): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ", "TMPDIR"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  env.SHELL = "/bin/sh";
  env.MINI_OPENCLAW_DATA_ROOT = dataRoot;
  env.CLAUDE_PROJECT_DIR = dataRoot;
  env.MINI_OPENCLAW_HOOK_EVENT = event;
  if (hook.pluginRoot) env.CLAUDE_PLUGIN_ROOT = hook.pluginRoot;
  return env;
}
