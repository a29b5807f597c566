/**
 * `TASKS.json` at the top of the data root (outside every folder the sandbox can write): the tasks
 * and the heartbeat's settings, as a watched settings file (settings/watched-json-file.ts): a broken
 * file leaves the last good tasks running, says why, and is never rewritten.
 */
import { type TasksFile, tasksFileSchema } from "@mini-openclaw/protocol";
import { TASKS_FILE } from "../settings/settings-files.js";
import { type Parsed, parseJsonFile, WatchedJsonFile } from "../settings/watched-json-file.js";

const MAX_BYTES = 2 * 1024 * 1024;

/** The file's text as tasks, or why it cannot be used. */
export function parseTasksFile(text: string): Parsed<TasksFile> {
  const parsed = parseJsonFile(TASKS_FILE, text, tasksFileSchema);
  if ("problem" in parsed) return parsed;
  const ids = new Set<string>();
  for (const task of parsed.value.tasks) {
    if (ids.has(task.id)) return { problem: `${TASKS_FILE}: two tasks have the id ${task.id}` };
    ids.add(task.id);
  }
  return parsed;
}

export type TasksFileStore = WatchedJsonFile<TasksFile>;

export interface TasksFileDeps {
  dataRoot: string;
  log: { warn(obj: object, msg: string): void };
  /** The tasks changed (the file, or through the API). */
  onChange: () => void;
  watch?: boolean;
}

export const tasksFileStore = (deps: TasksFileDeps): TasksFileStore =>
  new WatchedJsonFile({ ...deps, name: TASKS_FILE, maxBytes: MAX_BYTES, parse: parseTasksFile, missing: { version: 1, tasks: [] }, lastGood: "the last good tasks keep running" });
