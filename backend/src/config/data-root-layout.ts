/** The files that make the system prompt, in prompt order (PRODUCT.md section 4). Paths are data-root-relative. */
export const PROMPT_FILES = [
  { name: "SKILLS_SNAPSHOT.md", path: "SKILLS_SNAPSHOT.md" },
  { name: "SOUL.md", path: "workspace/SOUL.md" },
  { name: "IDENTITY.md", path: "workspace/IDENTITY.md" },
  { name: "USER.md", path: "workspace/USER.md" },
  { name: "AGENTS.md", path: "workspace/AGENTS.md" },
  { name: "MEMORY.md", path: "memory/MEMORY.md" },
] as const;

/** The agent's long-term memory file (user-editable), beside the daily logs (memory/daily-log.ts). */
export const MEMORY_FILE = PROMPT_FILES[5].path;
/** The embedded knowledge index (SQLite), the workbench's own: out of every tool's reach under storage/. */
export const KNOWLEDGE_INDEX_FILE = "storage/knowledge/index.db";

export const SKILLS_DIR = "skills";
/** Where the user may keep hook scripts: at the top of the data root, outside every folder the sandbox mounts; no tool reads it. */
export const HOOKS_DIR = "hooks";
export const AGENTS_DIR = "agents";
/** The workspace files (SOUL.md, IDENTITY.md…): a data root without this folder is new. */
export const WORKSPACE_DIR = "workspace";
/** The reviewer's instructions (not part of the system prompt). */
export const REVIEWER_FILE = "workspace/REVIEWER.md";
export const SESSIONS_DIR = "sessions";
/** Indexes and the trash: the workbench's own, out of every tool's reach. */
export const STORAGE_DIR = "storage";
/** The browser tool's screenshots, one JPEG per picture (named by its hash), served by id. */
export const SCREENSHOTS_DIR = "storage/browser/screenshots";
export const SNAPSHOT_FILE = "SKILLS_SNAPSHOT.md";
/** The change store (earlier contents of the files tool calls changed), at the top of the data root: outside every folder the sandbox mounts. */
export const CHECKPOINTS_DIR = ".checkpoints";

/** Folders every data root has. */
export const DATA_DIRS = ["memory/logs", "sessions", "skills", "agents", "workspace", "knowledge", "storage"] as const;

/** Written by the workbench itself; the files API refuses to write here. */
export const RUNTIME_DIRS = ["sessions", "storage", "attachments"] as const;
/** A readable copy of each session's attachments, by name: `read_file`, the terminal and Python read them here (never write). */
export const ATTACHMENTS_DIR = "attachments";
