import type { WorkspaceFile } from "@mini-openclaw/protocol";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { SETTINGS_FILES } from "../settings/settings-files.js";
import { walkConfinedDir } from "../paths/walk-confined-dir.js";

const TEXT_FILE = /\.(md|markdown|txt|json|ya?ml|toml|csv|py|sh|js|ts)$/i;
const MAX_FILES = 2000;

const GROUPS: Array<{ dir: WorkspaceFile["group"]; depth: number }> = [
  { dir: "workspace", depth: 1 },
  { dir: "memory", depth: 3 },
  { dir: "skills", depth: 4 },
  { dir: "agents", depth: 1 },
  { dir: "knowledge", depth: 4 },
];

export interface ScannedWorkspaceFile extends WorkspaceFile {
  mtimeMs: number;
}

/**
 * The text files a user edits in the Inspector (workspace, memory, skills with references, roles,
 * knowledge), with their change time. Links and special files are left out, never followed.
 */
export async function scanWorkspaceFiles(dataRoot: string): Promise<{ files: ScannedWorkspaceFile[]; dirs: string[] }> {
  const files: ScannedWorkspaceFile[] = [];
  const dirs: string[] = [];
  for (const { dir, depth } of GROUPS) {
    const room = MAX_FILES - files.length;
    if (room <= 0) break;
    const walked = await walkConfinedDir(dataRoot, dir, {
      maxDepth: depth,
      maxFiles: room,
      accept: (name) => TEXT_FILE.test(name) && !/^key\.md$/i.test(name),
    });
    for (const file of walked.files) files.push({ path: file.path, group: dir, bytes: file.size, mtimeMs: file.mtimeMs });
    dirs.push(...walked.dirs);
  }
  // The settings files, at the top: each listed only as the regular file it must be (never a link).
  for (const { path } of SETTINGS_FILES) {
    const info = await lstat(join(dataRoot, path)).catch(() => null);
    if (info?.isFile()) files.push({ path, group: "settings", bytes: info.size, mtimeMs: info.mtimeMs });
  }
  return { files, dirs };
}

/** The Inspector's file list. */
export async function listWorkspaceFiles(dataRoot: string): Promise<WorkspaceFile[]> {
  return (await scanWorkspaceFiles(dataRoot)).files.map(({ path, group, bytes }) => ({ path, group, bytes }));
}
