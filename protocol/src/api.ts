/** Shapes of the JSON API that the frontend reads (PRODUCT.md section 7). */
import type { ApprovalRequestEvent, ChangedFile, ChatEvent, GatedTool, QueueItem } from "./chat-events.js";
import type { CompactionEntry, SessionEntry } from "./session-entries.js";

export interface ApiError {
  error: string;
}

export interface ChatRequest {
  message: string;
  session_id?: string;
  stream?: boolean;
  /** false: the model is offered no tools this turn (for models that take none). */
  tools?: boolean;
  /**
   * Start a branch: the new turn follows this turn (0: the session's start) instead of the current
   * branch's last. Editing turn N and sending, or regenerating it, passes N's parent.
   */
  parent_turn?: number;
  /**
   * When the session's turn runs: `follow_up` runs this message as the next turn once it ends (in order),
   * `steer` hands it to the running turn at its next step boundary. The reply is then `202 ChatQueuedReply`.
   * Without `queue`, a message to a busy session is a 409. On an idle session the turn runs as usual.
   */
  queue?: "follow_up" | "steer";
}

/** `202` to `POST /api/chat` with `queue`: the message waits in the session's queue under this id. */
export interface ChatQueuedReply {
  queued: string;
  session_id: string;
  mode: "follow_up" | "steer";
}

/** `POST /api/sessions/:id/stop`: the turn ends (its `error` event says `aborted`); the queue comes back, emptied. */
export interface StopReply {
  id: string;
  stopping: true;
  /** The messages that were queued, oldest first, for the composer. */
  queue: QueueItem[];
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

/** `POST /api/sessions/:id/compact`. */
export interface CompactReply {
  compacted: boolean;
  /** Why nothing was compacted (e.g. the session has no turns yet). */
  reason?: string;
  entry?: CompactionEntry;
}

export interface SessionSummary {
  id: string;
  /** The user's title, else the first message's start. */
  title: string;
  /** When its last turn happened (renaming or pinning does not count). */
  updated_at: string;
  message_count: number;
  pinned: boolean;
}

/** `PATCH /api/sessions/:id`: rename (`title: null` goes back to the generated one), pin, switch branch. */
export interface SessionUpdate {
  title?: string | null;
  pinned?: boolean;
  /** Show the branch through this turn (its newest continuation). */
  branch?: number;
  /** Correct a turn's message without running it again. */
  edit?: { turn: number; content: string };
}

/** `DELETE /api/sessions/:id`: the file went to the trash; `POST /api/sessions/:id/restore` with `trash` brings it back. */
export interface SessionDeleteReply {
  id: string;
  trash: string;
}

export interface SessionSearchHit {
  id: string;
  title: string;
  updated_at: string;
  /** The id of the first turn holding every word of the query, or 0 when only the title matched. */
  turn: number;
  /** Text around the first match in that turn. */
  snippet: string;
}

export interface SessionSearchReply {
  query: string;
  results: SessionSearchHit[];
  /** Sessions searched. */
  searched: number;
}

/** `GET /api/sessions/:id/export?format=json`, and what `POST /api/sessions/import` takes. */
export interface SessionExport {
  format: "mini-openclaw-session";
  version: 2;
  id: string;
  title: string;
  exported_at: string;
  entries: SessionEntry[];
}

/** A turn of the current branch: its id, the turn it follows, and the turns that follow the same one. */
export interface BranchTurn {
  /** The turn's id as stored in its entries (1, 2, ... in the order turns started). */
  turn: number;
  /** The id of the turn it follows; 0: the session's start. */
  parent: number;
  /** Turns with the same parent (this one among them), oldest first: more than one is a fork. */
  siblings: number[];
}

export interface SessionDetail extends SessionSummary {
  /** The entries of the current branch, in file order (the file holds every branch). */
  entries: SessionEntry[];
  /** The current branch's turns, in order, one per `user` entry of `entries`. */
  branch: BranchTurn[];
  /**
   * A turn runs in this session now (`GET /api/sessions/:id/stream` follows it live). Otherwise a last
   * turn without a `final` or `error` event was cut short (the server stopped) and replays as interrupted.
   */
  running: boolean;
  /** Messages queued behind the running turn (follow-ups, and steers not yet delivered), oldest first. */
  queue: QueueItem[];
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
  /** For `terminal`, when the skill limits it (`Bash(git:*)`): the commands it may start with. */
  allowed_commands?: string[];
  warnings: string[];
  /** Other files in the skill's folder (e.g. `skills/x/references/guide.md`), read on demand. */
  references: string[];
}

export interface SkillProblem {
  folder: string;
  location: string;
  reason: string;
}

/** How the system prompt's skills list holds the valid skills, within its own character budget. */
export interface SkillsListStats {
  /** Skills in the list. */
  listed: number;
  /** Listed skills whose description was shortened to fit. */
  shortened: string[];
  /** Valid skills left out of the list whole (a slash command still loads them). */
  omitted: string[];
  chars: number;
  budget_chars: number;
}

export interface SkillsReply {
  skills: SkillInfo[];
  problems: SkillProblem[];
  list: SkillsListStats;
}

/** `POST /api/skills/install`: the folders written under skills/. */
export interface SkillInstallReply {
  installed: string[];
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
  /** The session's MCP tool definitions as the model is sent them, each with its size (fixed when the session started). */
  mcp_tools?: Array<{ name: string; server: string; chars: number; definition: unknown }>;
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
  /** `settings`: files of the data root's top level the user edits (APPROVALS.json). */
  group: "workspace" | "memory" | "skills" | "agents" | "knowledge" | "settings";
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
  /** Why APPROVALS.json is not used as written (it names the file and the error): then every call asks. */
  approvals: { problem: string | null };
  /** MCP servers from MCP.json: how many are up, how many failed, and what is wrong in words (the file's own problem included). */
  mcp: { configured: number; connected: number; failed: number; problems: string[] };
  /** Traces (OTEL_EXPORTER_OTLP_ENDPOINT): spans sent, and spans dropped (the queue full, an export failed or timed out). */
  tracing: { enabled: boolean; exported_spans: number; dropped_spans: number };
  uptime_s: number;
}

/** One MCP server as `GET /api/mcp` shows it. */
export interface McpServerStatus {
  name: string;
  state: "connecting" | "connected" | "failed" | "disabled";
  transport: "stdio" | "http";
  /** The config file it came from. */
  source: string;
  /** The command line (stdio) or the URL (remote) as written in MCP.json, `${VAR}`s unexpanded, a URL's query values hidden; headers are never shown. */
  target: string;
  /** What went wrong, or what is happening (a restart's wait), in words. */
  reason: string | null;
  /** The server's tools as it lists them (names as on the server, and as the model calls them in new sessions). */
  tools: Array<{ name: string; exposed_as: string | null; description: string; read_only: boolean; problem?: string }>;
  prompts: Array<{ name: string; description: string }>;
  resources: boolean;
  /** The last lines of its stderr (stdio servers). */
  stderr: string[];
  warnings: string[];
  restarts: number;
  /** The server's process id (stdio), while it runs. */
  pid: number | null;
}

/** `GET /api/mcp`. */
export interface McpReply {
  /** Where MCP.json is, relative to the data root, and whether it exists. */
  file: { path: string; exists: boolean; problem: string | null };
  servers: McpServerStatus[];
  /** Entries of the file that could not be used, each with its reason. */
  problems: Array<{ name: string | null; reason: string }>;
}

/** `GET /api/model`: the chat model as configured. The key itself is never sent back. */
export interface ModelSettingsReply {
  base_url: string | null;
  model: string;
  api_key_set: boolean;
  /** Where the settings are saved (KEY.md; git-ignored). */
  key_file: string;
  /** The knowledge base's embeddings: a model at an endpoint (the chat one unless `base_url`), or none (offline embedder). */
  embedding: { model: string | null; base_url: string | null; api_key_set: boolean };
  /** Settings the environment sets: they win over KEY.md, so they cannot be changed from here. */
  from_environment: ModelSettingName[];
}

export type ModelSettingName = "OPENAI_BASE_URL" | "OPENAI_MODEL" | "OPENAI_API_KEY" | "EMBEDDING_MODEL" | "EMBEDDING_BASE_URL" | "EMBEDDING_API_KEY";

/** `PUT /api/model`: saved to KEY.md and used from the next request on, without a restart. */
export interface ModelSettingsUpdate {
  /** Null or "" for OpenAI's own endpoint. */
  base_url: string | null;
  model: string;
  /** Absent: keep the saved key. "": no key (local servers). */
  api_key?: string;
  /** Absent: leave the embeddings as they are. A null or "" model: the offline embedder. */
  embedding?: { model: string | null; base_url: string | null; api_key?: string };
}

/** `POST /api/model/test`: tries settings before they are saved (an absent `api_key` uses the saved one). */
export type ModelTestRequest = ModelSettingsUpdate;

export interface ModelCheck {
  name: "models" | "chat" | "streaming" | "tools" | "reasoning" | "usage" | "embeddings";
  ok: boolean;
  detail: string;
}

export interface ModelTestReply {
  /** Model ids the server lists (`GET /models`), or null when it lists none. */
  models: string[] | null;
  checks: ModelCheck[];
}

/** One governed tool's part of `APPROVALS.json`. */
export interface ToolApprovalPolicy {
  mode: "off" | "ask" | "ask-unlisted" | "deny";
  allow: string[];
  deny: string[];
}

/** `GET /api/approvals`: what waits for the user now, and the policy in force. */
export interface ApprovalsReply {
  pending: Array<ApprovalRequestEvent & { session_id: string }>;
  /** `mcp`: MCP tools' mode and rules (`mcp__server__tool`, `mcp__server`, `mcp__server__*`). */
  policy: { version: 1; timeout_seconds: number; tools: Record<GatedTool, ToolApprovalPolicy>; mcp: ToolApprovalPolicy };
  /** Why APPROVALS.json was not used as written (then every call asks until it is fixed). */
  problem: string | null;
  /** `APPROVALS=off` in the environment: nothing asks. */
  off: boolean;
}

/** `POST /api/approvals/:id`: only from the workbench's own page (its Origin). */
export type ApprovalDecision =
  | { decision: "approve" }
  | { decision: "always"; rule: string }
  | { decision: "deny"; reason?: string };

/** One passage of `GET /api/knowledge/search`: where it is, and how each side scored it. */
export interface KnowledgeHit {
  /** Data-root-relative, e.g. `knowledge/notes/a.md`. */
  source: string;
  chunk: number;
  /** The passage's first line in the source (1-based). */
  line: number;
  /** The fused score the ranking uses. */
  score: number;
  /** BM25's score, null when BM25 did not find the passage among its candidates. */
  bm25: number | null;
  vector: number | null;
  text: string;
}

export interface KnowledgeSearchReply {
  mode: "hybrid" | "bm25";
  embedder: string;
  /** Why vector search was left out, if it was. */
  note: string | null;
  /** True while documents are being indexed: the results are from what was committed before. */
  indexing: boolean;
  results: KnowledgeHit[];
}

export interface KnowledgeStatusReply {
  documents: number;
  chunks: number;
  mode: "hybrid" | "bm25";
  embedder: { mode: "offline" | "openai"; label: string; error: string | null };
  last_update: string | null;
  indexing: { running: boolean; done: number; total: number; current: string | null };
  /** Documents and entries that are not indexed, with the reason. */
  skipped: Array<{ path: string; reason: string }>;
  /** Set when knowledge/ holds more than the indexer looks at. */
  truncated: string | null;
  /** Set when the stored index could not be read, or was stored by an earlier version, and is rebuilt. */
  recovered: string | null;
  /**
   * How changes to knowledge/ are noticed: folder events (a walk only after a change), polling every
   * 2 s when the system cannot watch (the reason says why), off when nothing watches. `walks` counts
   * the looks at the folder since start.
   */
  watch: { mode: "events" | "polling" | "off"; folders: number; reason: string | null; walks: number };
}

/** `GET /api/knowledge/source?path=`: a document's text as the index reads it (read-only in the Inspector). */
export interface KnowledgeSourceReply {
  path: string;
  /** Plain text as it is; other formats extracted, PDF pages and slides each under a `── page N ──` line. */
  text: string;
  /** PDF and PowerPoint: the line of `text` where each page or slide starts (a citation names the page). */
  pages: Array<{ page: number; line: number }> | null;
  page_word: "page" | "slide" | null;
}

/** `GET /api/knowledge/documents`: every document the index knows or refused. */
export interface KnowledgeDocument {
  path: string;
  /** indexed: searchable; failed: read but not indexed (the reason says why; retried when it changes); skipped: never read (too large, a link). */
  state: "indexed" | "failed" | "skipped";
  chunks: number;
  bytes: number | null;
  reason?: string;
}

/** `POST /api/knowledge/documents?filename=NAME` (201): the file as stored, and how its indexing went. */
export interface KnowledgeUploadReply {
  path: string;
  bytes: number;
  /** pending: stored, and waiting for the indexer (it is busy with other documents). */
  state: "indexed" | "failed" | "pending";
  chunks: number;
  reason?: string;
}

/** `DELETE /api/knowledge/documents?path=`: the document left the index; `trash` names it for a restore. */
export interface KnowledgeRemoveReply {
  path: string;
  trash: string;
}

/** One call's file changes, as `GET /api/sessions/:id/changes?turn=N` lists them. */
export interface CallChanges {
  change: string;
  turn: number;
  call_id: string;
  tool: string;
  at: string;
  files: ChangedFile[];
  /** What the call may have changed that cannot be known, each with why. */
  untracked?: string[];
}

export interface ChangesReply {
  session_id: string;
  /** The turn asked for, or null for every turn. */
  turn: number | null;
  calls: CallChanges[];
}

/** `GET /api/changes/:change/diff?path=`: the file before and after the call, as text (null: absent or not text). */
export interface ChangeDiffReply {
  change: string;
  path: string;
  kind: ChangedFile["kind"];
  before: string | null;
  after: string | null;
  /** What the file holds now, when it differs from `after` (the user changed it since). */
  current_differs: boolean;
}

/** `POST /api/changes/revert { change, path, force? }`. */
export interface RevertReply {
  reverted: string;
  /** What was done: the file's earlier content written back, or the file the call created removed. */
  action: "restored" | "removed";
}

/** `POST /api/sessions/:id/rewind { turn, files?, conversation?, on_conflict? }`. */
export interface RewindReply {
  session_id: string;
  turn: number;
  /** `untracked`: what the rewound calls may have changed that cannot be known (so it was not put back), each with why. */
  files: { restored: string[]; removed: string[]; skipped: Array<{ path: string; reason: string }>; untracked: string[] };
  /** The turn the session's current branch now ends at (0: before the first), when the conversation was rewound. */
  conversation_leaf: number | null;
}
