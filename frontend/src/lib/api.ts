/** The backend's JSON API, typed by the shared protocol. Every failure becomes an ApiError with the server's words. */
import type {
  AgentsReply,
  ApprovalDecision,
  ApprovalsReply,
  McpReply,
  ChangeDiffReply,
  ChangesReply,
  RevertReply,
  RewindReply,
  ChatQueuedReply,
  CompactReply,
  FileReply,
  HealthReply,
  KnowledgeDocument,
  KnowledgeRemoveReply,
  KnowledgeSearchReply,
  KnowledgeSourceReply,
  KnowledgeStatusReply,
  ModelSettingsReply,
  ModelSettingsUpdate,
  ModelTestReply,
  PromptReply,
  QueueItem,
  SessionDeleteReply,
  SessionDetail,
  SessionSearchReply,
  SessionSummary,
  SessionUpdate,
  SkillInstallReply,
  SkillsReply,
  StopReply,
  WorkspaceFile,
} from "@mini-openclaw/protocol";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The reply's JSON, beside its `error` (e.g. a rewind's `conflicts`). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "The workbench server is not reachable. Is it still running?");
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  if (!response.ok) {
    const message = (body as { error?: string } | null)?.error ?? `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message, body);
  }
  return body as T;
}

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

export const api = {
  health: () => request<HealthReply>("/api/health"),
  sessions: () => request<{ sessions: SessionSummary[] }>("/api/sessions").then((r) => r.sessions),
  session: (id: string) => request<SessionDetail>(`/api/sessions/${encodeURIComponent(id)}`),
  updateSession: (id: string, update: SessionUpdate) =>
    request<SessionSummary>(`/api/sessions/${encodeURIComponent(id)}`, { ...json(update), method: "PATCH" }),
  deleteSession: (id: string) => request<SessionDeleteReply>(`/api/sessions/${encodeURIComponent(id)}`, { method: "DELETE" }),
  restoreSession: (id: string, trash: string) => request<{ id: string }>(`/api/sessions/${encodeURIComponent(id)}/restore`, json({ trash })),
  searchSessions: (query: string, signal?: AbortSignal) =>
    request<SessionSearchReply>(`/api/sessions/search?q=${encodeURIComponent(query)}`, { signal }),
  stopSession: (id: string) => request<StopReply>(`/api/sessions/${encodeURIComponent(id)}/stop`, json({})),
  /** A message behind the session's running turn: a follow-up (the next turn) or a steer (into this one). */
  queueMessage: (id: string, message: string, mode: QueueItem["mode"], tools = true) =>
    request<ChatQueuedReply>("/api/chat", json({ message, session_id: id, stream: true, queue: mode, ...(tools ? {} : { tools: false }) })),
  dequeue: (id: string, queued: string) => request<null>(`/api/sessions/${encodeURIComponent(id)}/queue/${encodeURIComponent(queued)}`, { method: "DELETE" }),
  forkSession: (id: string, turn: number) => request<SessionSummary>(`/api/sessions/${encodeURIComponent(id)}/fork`, json({ turn })),
  importSession: (exported: unknown) => request<SessionSummary>("/api/sessions/import", json(exported)),
  exportUrl: (id: string, format: "md" | "json") => `/api/sessions/${encodeURIComponent(id)}/export?format=${format}`,
  skills: () => request<SkillsReply>("/api/skills"),
  approvals: () => request<ApprovalsReply>("/api/approvals"),
  mcp: () => request<McpReply>("/api/mcp"),
  changes: (id: string, turn?: number) => request<ChangesReply>(`/api/sessions/${encodeURIComponent(id)}/changes${turn ? `?turn=${turn}` : ""}`),
  changeDiff: (change: string, path: string) => request<ChangeDiffReply>(`/api/changes/${encodeURIComponent(change)}/diff?path=${encodeURIComponent(path)}`),
  revertChange: (change: string, path: string, force = false) => request<RevertReply>("/api/changes/revert", json({ change, path, ...(force ? { force } : {}) })),
  rewind: (id: string, body: { turn: number; files: boolean; conversation: boolean; on_conflict?: "fail" | "skip" | "overwrite" }) =>
    request<RewindReply>(`/api/sessions/${encodeURIComponent(id)}/rewind`, json(body)),
  restartMcp: (name: string) => request<{ restarting: string }>(`/api/mcp/${encodeURIComponent(name)}/restart`, json({})),
  knowledgeStatus: () => request<KnowledgeStatusReply>("/api/knowledge/status"),
  knowledgeDocuments: () => request<{ documents: KnowledgeDocument[] }>("/api/knowledge/documents").then((r) => r.documents),
  knowledgeSource: (path: string) => request<KnowledgeSourceReply>(`/api/knowledge/source?path=${encodeURIComponent(path)}`),
  knowledgeSearch: (q: string, k = 10) => request<KnowledgeSearchReply>(`/api/knowledge/search?q=${encodeURIComponent(q)}&k=${k}`),
  knowledgeRebuild: () => request<{ started: boolean }>("/api/knowledge/rebuild", json({})),
  removeKnowledge: (path: string) => request<KnowledgeRemoveReply>(`/api/knowledge/documents?path=${encodeURIComponent(path)}`, { method: "DELETE" }),
  restoreKnowledge: (trash: string) => request<{ path: string }>("/api/knowledge/documents/restore", json({ trash })),
  decideApproval: (id: string, decision: ApprovalDecision) => request<{ id: string }>(`/api/approvals/${encodeURIComponent(id)}`, json(decision)),
  installSkill: (archive: Blob, filename: string) =>
    request<SkillInstallReply>(`/api/skills/install?filename=${encodeURIComponent(filename)}`, {
      method: "POST",
      headers: { "content-type": "application/zip" },
      body: archive,
    }),
  files: () => request<{ files: WorkspaceFile[] }>("/api/files/list").then((r) => r.files),
  readFile: (path: string) => request<FileReply>(`/api/files?path=${encodeURIComponent(path)}`),
  saveFile: (path: string, content: string) => request<{ path: string; bytes: number }>("/api/files", json({ path, content })),
  agents: () => request<AgentsReply>("/api/agents"),
  setReviewer: (enabled: boolean) => request<AgentsReply["reviewer"]>("/api/reviewer", json({ enabled })),
  compact: (sessionId: string) => request<CompactReply>(`/api/sessions/${encodeURIComponent(sessionId)}/compact`, json({})),
  model: () => request<ModelSettingsReply>("/api/model"),
  testModel: (settings: ModelSettingsUpdate) => request<ModelTestReply>("/api/model/test", json(settings)),
  saveModel: (settings: ModelSettingsUpdate) => request<ModelSettingsReply>("/api/model", { ...json(settings), method: "PUT" }),
  prompt: (sessionId: string | null) =>
    request<PromptReply>(`/api/prompt${sessionId ? `?session_id=${encodeURIComponent(sessionId)}` : ""}`),
};
