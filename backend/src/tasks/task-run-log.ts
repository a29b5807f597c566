/**
 * Every task's runs, in `storage/tasks/runs.jsonl` (the workbench's own: no tool writes there): one
 * line per change of a run, the last line of a run's id wins. Read once at start (a run still
 * "running" then was cut by a crash: it is recorded as aborted) and written to the end as runs go.
 */
import { appendFile } from "node:fs/promises";
import { type TaskRun, taskRunSchema } from "@mini-openclaw/protocol";
import { STORAGE_DIR } from "../config/data-root-layout.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { inConfinedFolder } from "../paths/dir-handle.js";
import { readConfinedFile } from "../paths/read-confined-file.js";

const FOLDER = `${STORAGE_DIR}/tasks`;
const NAME = "runs.jsonl";
const MAX_BYTES = 32 * 1024 * 1024;
/** Runs kept per task (older ones are dropped when the file is compacted at start). */
export const RUNS_KEPT = 200;

export class TaskRunLog {
  private readonly byId = new Map<string, TaskRun>();
  /** Appends in order, one at a time. */
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly dataRoot: string) {}

  /** Reads the log; runs a crash cut are recorded as aborted, and the file is written again compactly. */
  async load(now = new Date().toISOString()): Promise<void> {
    const text = await readConfinedFile(this.dataRoot, `${FOLDER}/${NAME}`, { maxBytes: MAX_BYTES, timeoutMs: 10_000 }).then(
      (file) => file.data.toString("utf8"),
      () => "",
    );
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        const parsed = taskRunSchema.safeParse(JSON.parse(line));
        if (parsed.success) this.byId.set(parsed.data.id, parsed.data);
      } catch {
        // a torn last line
      }
    }
    for (const run of this.byId.values()) {
      if (run.outcome === "running") this.byId.set(run.id, { ...run, outcome: "aborted", ended_at: now, detail: "The workbench stopped while it ran." });
    }
    const perTask = new Map<string, TaskRun[]>();
    for (const run of this.byId.values()) perTask.set(run.task_id, [...(perTask.get(run.task_id) ?? []), run]);
    for (const runs of perTask.values()) for (const old of runs.slice(0, Math.max(0, runs.length - RUNS_KEPT))) this.byId.delete(old.id);
    const lines = [...this.byId.values()].map((run) => `${JSON.stringify(run)}\n`).join("");
    if (lines !== text) await writeConfinedAtomic(this.dataRoot, `${FOLDER}/${NAME}`, lines);
  }

  /** Records a run as it is now. */
  put(run: TaskRun): Promise<void> {
    this.byId.delete(run.id); // re-inserted last: the map stays in order of the latest change
    this.byId.set(run.id, run);
    this.chain = this.chain.then(() => inConfinedFolder(this.dataRoot, FOLDER, { create: true }, (dir) => appendFile(dir.at(NAME), `${JSON.stringify(run)}\n`)));
    return this.chain;
  }

  /** A task's runs, newest first. */
  runs(taskId: string): TaskRun[] {
    return [...this.byId.values()].filter((run) => run.task_id === taskId).sort((a, b) => b.started_at.localeCompare(a.started_at) || b.id.localeCompare(a.id));
  }

  last(taskId: string): TaskRun | null {
    return this.runs(taskId)[0] ?? null;
  }

  /** The latest scheduled time a task ran (or was skipped) for: where its schedule goes on from. */
  lastScheduled(taskId: string): number | null {
    let latest: number | null = null;
    for (const run of this.byId.values()) {
      if (run.task_id !== taskId || run.scheduled_for === null) continue;
      const at = Date.parse(run.scheduled_for);
      if (latest === null || at > latest) latest = at;
    }
    return latest;
  }

  /** Drops a deleted task's runs. */
  forget(taskId: string): void {
    for (const run of [...this.byId.values()]) if (run.task_id === taskId) this.byId.delete(run.id);
    this.chain = this.chain.then(() => writeConfinedAtomic(this.dataRoot, `${FOLDER}/${NAME}`, [...this.byId.values()].map((run) => `${JSON.stringify(run)}\n`).join("")));
  }
}
