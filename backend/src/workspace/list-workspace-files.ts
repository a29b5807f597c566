import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { WorkspaceFile } from "@mini-openclaw/protocol";

const TEXT_FILE = /\.(md|markdown|txt|json|ya?ml|toml|csv|py|sh|js|ts)$/i;
const MAX_FILES = 2000;

const GROUPS: Array<{ dir: WorkspaceFile["group"]; depth: number }> = [
  { dir: "workspace", depth: 1 },
  { dir: "memory", depth: 3 },
  { dir: "skills", depth: 4 },
  { dir: "agents", depth: 1 },
  { dir: "knowledge", depth: 4 },
];

async function walk(root: string, rel: string, depth: number, out: WorkspaceFile[], group: WorkspaceFile["group"]) {
  if (depth < 0 || out.length >= MAX_FILES) return;
  let entries;
  try {
    entries = await readdir(join(root, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".")) continue;
    const path = `${rel}/${entry.name}`;
    if (entry.isDirectory()) await walk(root, path, depth - 1, out, group);
    else if (entry.isFile() && TEXT_FILE.test(entry.name) && !/^key\.md$/i.test(entry.name)) {
      const info = await stat(join(root, path)).catch(() => null);
      if (info) out.push({ path, group, bytes: info.size });
    }
  }
}

/** The text files a user edits in the Inspector: workspace, memory, skills (with references), roles, knowledge. */
export async function listWorkspaceFiles(dataRoot: string): Promise<WorkspaceFile[]> {
  const files: WorkspaceFile[] = [];
  for (const { dir, depth } of GROUPS) await walk(dataRoot, dir, depth, files, dir);
  return files;
}
