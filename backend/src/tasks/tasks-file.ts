/**
 * `TASKS.json` at the top of the data root (outside every folder the sandbox can write): the tasks
 * and the heartbeat's settings. Read at start and watched; a broken file leaves the last good tasks
 * running, says why, and is never rewritten (the API refuses to write over it).
 */
import { type TasksFile, tasksFileSchema } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { FolderWatcher } from "../paths/folder-watcher.js";
import { isUnreadable, readConfinedTextIfPresent } from "../paths/read-confined-file.js";
import { TASKS_FILE } from "../settings/settings-files.js";

const MAX_BYTES = 2 * 1024 * 1024;
const EMPTY: TasksFile = { version: 1, tasks: [] };

/** The file's text as tasks, or why it cannot be used. */
export function parseTasksFile(text: string): { file: TasksFile } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { problem: `${TASKS_FILE} is not valid JSON (${(err as Error).message})` };
  }
  const parsed = tasksFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `${TASKS_FILE}: ${issue.path.join(".") || "(top)"}: ${issue.message}` };
  }
  const ids = new Set<string>();
  for (const task of parsed.data.tasks) {
    if (ids.has(task.id)) return { problem: `${TASKS_FILE}: two tasks have the id ${task.id}` };
    ids.add(task.id);
  }
  return { file: parsed.data };
}

export interface TasksFileDeps {
  dataRoot: string;
  log: { warn(obj: object, msg: string): void };
  /** The tasks changed (the file, or through the API). */
  onChange: () => void;
  watch?: boolean;
}

export class TasksFileStore {
  private current: TasksFile = EMPTY;
  private problemText: string | null = null;
  private watcher: FolderWatcher | null = null;
  private reloading: Promise<void> = Promise.resolve();
  private writing: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: TasksFileDeps) {}

  async start(): Promise<void> {
    await this.reload();
    if (this.deps.watch !== false) {
      this.watcher = new FolderWatcher(this.deps.dataRoot, { rootNames: [TASKS_FILE], pollMs: 2_000, debounceMs: 100, onChange: () => void this.reload() });
    }
  }

  close(): void {
    this.watcher?.close();
  }

  get file(): TasksFile {
    return this.current;
  }

  /** Why the file is not used as written, or null. */
  get problem(): string | null {
    return this.problemText;
  }

  reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.read()).catch((err) => this.deps.log.warn({ err }, `${TASKS_FILE} reload failed`));
    return this.reloading;
  }

  private async read(): Promise<void> {
    let text: string | null;
    try {
      text = await readConfinedTextIfPresent(this.deps.dataRoot, TASKS_FILE, MAX_BYTES);
    } catch (err) {
      return this.setProblem(`${TASKS_FILE} cannot be read (${isUnreadable(err) ? err.message : (err as Error).message})`);
    }
    const result = text === null ? { file: EMPTY } : parseTasksFile(text);
    if ("problem" in result) return this.setProblem(result.problem);
    const changed = JSON.stringify(result.file) !== JSON.stringify(this.current) || this.problemText !== null;
    this.current = result.file;
    this.problemText = null;
    if (changed) this.deps.onChange();
  }

  private setProblem(problem: string): void {
    const text = `${problem}; the last good tasks keep running until it is fixed`;
    if (text === this.problemText) return;
    this.problemText = text;
    this.deps.onChange();
  }

  /** Runs `change` on the file as it is and writes it: refused while the file is broken (it is the user's to fix). */
  write(change: (file: TasksFile) => TasksFile): Promise<TasksFile> {
    const run = this.writing.then(async () => {
      await this.reloading;
      if (this.problemText) throw new UserError(409, `${this.problemText.split(";")[0]}: fix the file first (it is never rewritten over a mistake).`);
      const next = change(structuredClone(this.current));
      await writeConfinedAtomic(this.deps.dataRoot, TASKS_FILE, `${JSON.stringify(next, null, 2)}\n`);
      this.current = next;
      this.deps.onChange();
      return next;
    });
    this.writing = run.catch(() => {});
    return run;
  }
}
