/** Shapes of the JSON API that the frontend reads (PRODUCT.md section 7). */
import type { ChatEvent } from "./chat-events.js";

export interface ApiError {
  error: string;
}

export interface ChatRequest {
  message: string;
  session_id?: string;
  stream?: boolean;
}

/** `POST /api/chat` with `stream: false`. */
export interface ChatReply {
  session_id: string;
  content: string;
  events: ChatEvent[];
}

export interface FileReply {
  path: string;
  content: string;
}

/**
 * `snapshot`: the skills snapshot the session started with (its system prompt uses it for its whole life).
 * `compaction`: a summary that stands in for the session's first `covers_turns` turns in what the model is sent.
 * `review`: the reviewer's look at the turn before it: `advice` goes to the next turn's model request, `record`
 * (in `content`) is for the user and never sent to a model.
 */
export type SessionEntryType =
  | "user"
  | "assistant"
  | "thought"
  | "tool"
  | "skill"
  | "error"
  | "snapshot"
  | "compaction"
  | "review"
  | "streaming";

/** A skill's text as the model was given it; kept whole across compactions. */
export interface LoadedSkillRecord {
  name: string;
  location: string;
  content: string;
}

export interface SessionToolRecord {
  id: string;
  name: string;
  input: unknown;
  output: string;
  ok: boolean;
  duration_ms: number;
  details?: Record<string, unknown>;
}

/** One line of a session file. */
export interface SessionEntry {
  type: SessionEntryType;
  /** ISO time the entry was written. */
  ts: string;
  content: string;
  tool?: SessionToolRecord;
  /** Model step of the turn (1-based) for assistant, thought and tool entries: calls of one step ran together. */
  step?: number;
  /** For the `assistant` entry that ends a turn: how long the turn took. */
  duration_ms?: number;
  /** For `assistant` entries cut short by an error or an abort: the text shown so far. */
  partial?: boolean;
  /**
   * For `assistant` and `thought` entries rebuilt from `streaming` checkpoints: the server stopped
   * (a crash, a kill) while this step streamed, so its end was never written.
   */
  interrupted?: boolean;
  /**
   * For `streaming` entries (written at most once a second while a step streams, so a crash loses at
   * most the last second): which text the `content` continues. Readers of the store never see them:
   * they are folded into the step's entry, or dropped once that entry was written.
   */
  channel?: "text" | "thought";
  /** For `skill` entries: the SKILL.md that was read. */
  location?: string;
  /** For `error` entries: the error code. */
  code?: string;
  /** For `user` entries of a slash command: the message the model was sent (the skill, expanded). */
  model_content?: string;
  /** For `compaction` entries: how many turns from the start the summary (`content`) replaces. */
  covers_turns?: number;
  /** For `compaction` entries: the skills loaded in those turns, carried over whole. */
  skills?: LoadedSkillRecord[];
  /** For `compaction` entries: asked for by the user rather than forced by the context budget. */
  forced?: boolean;
  /** For `snapshot` entries: the roles the `delegate` tool lists for the session's whole life. */
  roles?: string;
  /** For `review` entries: what the reviewer tells the main agent for its next turn. */
  advice?: string;
}

/** `POST /api/sessions/:id/compact`. */
export interface CompactReply {
  compacted: boolean;
  /** Why nothing was compacted (e.g. the session has no turns yet). */
  reason?: string;
  entry?: SessionEntry;
}

export interface SessionSummary {
  id: string;
  title: string;
  updated_at: string;
  message_count: number;
}

export interface SessionDetail extends SessionSummary {
  entries: SessionEntry[];
  /** Set when the file's last line was torn (a crash mid-write) and was dropped on reading. */
  recovered_torn_line?: boolean;
}

export interface SkillInfo {
  name: string;
  description: string;
  /** As written into SKILLS_SNAPSHOT.md, e.g. `./backend/skills/get_weather/SKILL.md`. */
  location: string;
  tags: string[];
  allowed_tools: string[] | null;
  warnings: string[];
  /** Other files in the skill's folder (e.g. `skills/x/references/guide.md`), read on demand. */
  references: string[];
}

export interface SkillProblem {
  folder: string;
  location: string;
  reason: string;
}

export interface SkillsReply {
  skills: SkillInfo[];
  problems: SkillProblem[];
}

export interface PromptSection {
  name: string;
  /** Data-root-relative path of the source file. */
  path: string;
  missing: boolean;
  /** Why the file was refused (e.g. "symlink refused", "not a regular file"); it was not read. */
  problem?: string;
  truncated: boolean;
  raw_chars: number;
  injected_chars: number;
  /** Rough token count of the injected text (characters / 4). */
  token_estimate: number;
  /** The section exactly as injected (cut and annotated where truncated). */
  text: string;
}

export interface PromptReply {
  /** Session whose last turn used this prompt, or null for a preview assembled now. */
  session_id: string | null;
  assembled_at: string;
  total_chars: number;
  budget_chars: number;
  sections: PromptSection[];
  text: string;
}

/** A sub-agent role from `agents/<name>.md`. */
export interface RoleInfo {
  name: string;
  description: string;
  /** Data-root-relative path of the role file. */
  path: string;
  /** The tools its sub-agents get: core tools, and `delegate` to delegate further. */
  tools: string[];
  /** A model name overriding the configured one for this role. */
  model: string | null;
  warnings: string[];
}

export interface RoleProblem {
  path: string;
  reason: string;
}

/** A delegation running now. */
export interface RunningDelegation {
  call_id: string;
  session_id: string;
  agent: string;
  depth: number;
  task: string;
  started_at: string;
}

export interface ReviewInfo {
  session_id: string;
  ts: string;
  advice: string;
  record: string;
}

/** `GET /api/agents`: the status view. */
export interface AgentsReply {
  roles: RoleInfo[];
  problems: RoleProblem[];
  running: RunningDelegation[];
  max_depth: number;
  reviewer: { enabled: boolean; running: string[]; latest: ReviewInfo | null };
}

/** A file the Inspector can open. */
export interface WorkspaceFile {
  path: string;
  group: "workspace" | "memory" | "skills" | "agents" | "knowledge";
  bytes: number;
}

export interface HealthReply {
  ok: true;
  version: string;
  data_root: string;
  /** How paths in the data root are written in skill locations and the prompt, e.g. `./backend`. */
  location_prefix: string;
  model: { configured: boolean; model: string | null; base_url: string | null; hint?: string };
  /** How tool processes are confined: "degraded" means no OS sandbox (and every tool result says so). */
  sandbox: { mode: "bubblewrap" | "degraded"; detail: string; network: boolean; hint?: string };
  python: { available: boolean; hint?: string };
  /** Knowledge search: hybrid, or BM25 alone while the embedding endpoint fails. */
  knowledge: { documents: number; chunks: number; mode: "hybrid" | "bm25"; embedder: string; error?: string };
  uptime_s: number;
}
