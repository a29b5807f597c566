import type { UiEvent } from "@mini-openclaw/protocol";
import { skillFolderOf } from "../tools/read-file.js";
import { parseSkill } from "../skills/parse-skill.js";
import { readConfinedText } from "../paths/read-confined-file.js";
import { MAX_SKILL_BYTES } from "../skills/scan-skills.js";
import { scanWorkspaceFiles } from "../workspace/list-workspace-files.js";

const POLL_MS = 500;

/**
 * Notices changes on disk to the files the Inspector shows (by the agent's tools or another editor)
 * and tells the UI: `refresh` of the file list and skills, `file_changed` for each changed file, and a
 * warning toast when a SKILL.md written on disk will be skipped (its frontmatter is broken).
 * Polls twice a second while anyone listens (fs.watch is not reliable across editors and mounts).
 */
export class WorkspaceWatcher {
  private readonly listeners = new Set<(event: UiEvent) => void>();
  private known: Map<string, string> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(private readonly dataRoot: string) {}

  subscribe(listener: (event: UiEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) {
      // A scan that fails (a folder swapped mid-scan by a tool, the data root gone after close) is
      // skipped: the next poll looks again. Left unhandled, the rejection would stop the server.
      this.timer = setInterval(() => void this.poll().catch(() => {}), POLL_MS);
      this.timer.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
        this.known = null;
      }
    };
  }

  private emit(event: UiEvent) {
    for (const listener of this.listeners) listener(event);
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const now = new Map<string, string>();
      const files = await scanWorkspaceFiles(this.dataRoot);
      if (this.listeners.size === 0) return; // closed (or everyone left) while scanning
      for (const file of files) now.set(file.path, `${file.mtimeMs}:${file.bytes}`);
      const before = this.known;
      this.known = now;
      if (!before) return;
      const changed = [...now].filter(([path, sig]) => before.get(path) !== sig).map(([path]) => path);
      const removed = [...before.keys()].filter((path) => !now.has(path));
      if (changed.length === 0 && removed.length === 0) return;
      const paths = [...changed, ...removed];
      this.emit({ type: "refresh", target: paths.some((p) => p.startsWith("skills/")) ? "skills" : "files" });
      if (paths.some((p) => p.startsWith("agents/"))) this.emit({ type: "refresh", target: "agents" });
      for (const path of changed) if (before.has(path)) this.emit({ type: "file_changed", path });
      for (const path of changed) await this.checkSkill(path);
    } finally {
      this.polling = false;
    }
  }

  private async checkSkill(path: string): Promise<void> {
    const folder = skillFolderOf(path);
    if (!folder) return;
    const text = await readConfinedText(this.dataRoot, path, MAX_SKILL_BYTES).then((f) => f.content, () => null);
    const parsed = text === null ? null : parseSkill(text, folder);
    if (parsed && !parsed.ok) this.emit({ type: "toast", level: "warning", message: `Skill "${folder}" is skipped: ${parsed.reason}.` });
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.listeners.clear();
  }
}
