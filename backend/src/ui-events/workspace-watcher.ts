import type { UiEvent } from "@mini-openclaw/protocol";
import { skillFolderOf } from "../tools/read-file.js";
import { parseSkill } from "../skills/parse-skill.js";
import { FolderWatcher } from "../paths/folder-watcher.js";
import { readConfinedText } from "../paths/read-confined-file.js";
import { MAX_SKILL_BYTES } from "../skills/scan-skills.js";
import { APPROVALS_FILE, MCP_FILE } from "../settings/settings-files.js";
import { scanWorkspaceFiles } from "../workspace/list-workspace-files.js";
import { toastEvent } from "./notice-message.js";

/** How often the files are looked at when the system cannot watch their folders. */
const POLL_MS = 500;
/** The data root's own entries whose changes the Inspector shows. */
const ROOT_NAMES = ["workspace", "memory", "skills", "agents", "knowledge", APPROVALS_FILE, MCP_FILE];

/**
 * Notices changes on disk to the files the Inspector shows (by the agent's tools or another editor)
 * and tells the UI: `refresh` of the file list and skills, `file_changed` for each changed file, and a
 * warning toast when a SKILL.md written on disk will be skipped (its frontmatter is broken).
 * While anyone listens, it follows the folders' events (a folder watcher fed with the folders each
 * scan entered) and scans only after a change; when the system cannot watch, it scans twice a second.
 */
export class WorkspaceWatcher {
  private readonly listeners = new Set<(event: UiEvent) => void>();
  private known: Map<string, string> | null = null;
  private watcher: FolderWatcher | null = null;
  /** Scans so far: with folder events, none happen while nothing changes. */
  scans = 0;

  constructor(private readonly dataRoot: string) {}

  subscribe(listener: (event: UiEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.watcher) {
      // The watcher paces the scans: one at a time, at most one start per 500 ms (as polling did).
      // A scan that fails (a folder swapped mid-scan by a tool, the data root gone after close) is
      // skipped: the next change looks again. Left unhandled, the rejection would stop the server.
      this.watcher = new FolderWatcher(this.dataRoot, { rootNames: ROOT_NAMES, pollMs: POLL_MS, onChange: () => this.scan().catch(() => {}) });
      this.watcher.request();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.watcher) {
        this.watcher.close();
        this.watcher = null;
        this.known = null;
      }
    };
  }

  private emit(event: UiEvent) {
    for (const listener of this.listeners) listener(event);
  }

  private async scan(): Promise<void> {
    const now = new Map<string, string>();
    const { files, dirs } = await scanWorkspaceFiles(this.dataRoot);
    this.scans++;
    if (this.listeners.size === 0 || !this.watcher) return; // closed (or everyone left) while scanning
    void this.watcher.track(dirs).catch(() => {});
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
    if (paths.includes(APPROVALS_FILE)) this.emit({ type: "refresh", target: "approvals" });
    for (const path of changed) if (before.has(path)) this.emit({ type: "file_changed", path });
    for (const path of changed) await this.checkSkill(path);
  }

  private async checkSkill(path: string): Promise<void> {
    const folder = skillFolderOf(path);
    if (!folder) return;
    const text = await readConfinedText(this.dataRoot, path, MAX_SKILL_BYTES).then((f) => f.content, () => null);
    const parsed = text === null ? null : parseSkill(text, folder);
    if (parsed && !parsed.ok) this.emit(toastEvent({ kind: "skill_skipped", folder, detail: parsed.reason }, "warning"));
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
    this.listeners.clear();
  }
}
