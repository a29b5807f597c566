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
  /** Per task, its runs by id (what `runs` and `last` read without going through every task's). */
  private readonly byTask = new Map<string, Map<string, TaskRun>>();
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
        if (parsed.success) this.remember(parsed.data);
      } catch {
        // a torn last line
      }
    }
    for (const runs of this.byTask.values()) {
      for (const run of runs.values()) if (run.outcome === "running") runs.set(run.id, { ...run, outcome: "aborted", ended_at: now, detail: "The workbench stopped while it ran." });
    }
    const lines = this.allLines();
    if (lines !== text) await writeConfinedAtomic(this.dataRoot, `${FOLDER}/${NAME}`, lines);
  }

  /** Holds a run (the newest RUNS_KEPT of its task; older ones leave the file when it is next compacted). */
  private remember(run: TaskRun): void {
    const runs = this.byTask.get(run.task_id) ?? new Map<string, TaskRun>();
    this.byTask.set(run.task_id, runs);
    runs.delete(run.id); // re-inserted last: each task's map stays in order of the latest change
    runs.set(run.id, run);
    if (runs.size > RUNS_KEPT) for (const old of [...runs.keys()].slice(0, runs.size - RUNS_KEPT)) runs.delete(old);
  }

  private allLines(): string {
    return [...this.byTask.values()].flatMap((runs) => [...runs.values()].map((run) => `${JSON.stringify(run)}\n`)).join("");
  }

  /** Records a run as it is now. */
  put(run: TaskRun): Promise<void> {
    this.remember(run);
    this.chain = this.chain.then(() => inConfinedFolder(this.dataRoot, FOLDER, { create: true }, (dir) => appendFile(dir.at(NAME), `${JSON.stringify(run)}\n`)));
    return this.chain;
  }

  /** A task's runs, newest first. */
  runs(taskId: string): TaskRun[] {
    return [...(this.byTask.get(taskId)?.values() ?? [])].sort((a, b) => b.started_at.localeCompare(a.started_at) || b.id.localeCompare(a.id));
  }

  last(taskId: string): TaskRun | null {
    return this.runs(taskId)[0] ?? null;
  }

  /** The latest scheduled time a task ran (or was skipped) for: where its schedule goes on from. */
  lastScheduled(taskId: string): number | null {
    let latest: number | null = null;
    for (const run of this.byTask.get(taskId)?.values() ?? []) {
      if (run.scheduled_for === null) continue;
      const at = Date.parse(run.scheduled_for);
      if (latest === null || at > latest) latest = at;
    }
    return latest;
  }

  /** Drops a deleted task's runs. */
  forget(taskId: string): void {
    this.byTask.delete(taskId);
    this.chain = this.chain.then(() => writeConfinedAtomic(this.dataRoot, `${FOLDER}/${NAME}`, this.allLines()));
  }
}
