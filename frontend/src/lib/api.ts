/** The calls the UI makes, each one operation of the API contract (api-client.ts). */
import {
  api as contract,
  type ApprovalDecision,
  type ChatQueuedReply,
  type ModelSettingsUpdate,
  type ProfileUpdate,
  type QueueItem,
  type SessionUpdate,
} from "@mini-openclaw/protocol";
import { callApi, urlOf } from "./api-client";

export { ApiError } from "./api-client";

const { sessions, chat, changes, skills, knowledge, files, agents, approvals, mcp, model, models, prompt, health } = contract;

export const api = {
  health: () => callApi(health.health),
  sessions: () => callApi(sessions.list).then((r) => r.sessions),
  session: (id: string) => callApi(sessions.read, { params: { id } }),
  updateSession: (id: string, update: SessionUpdate) => callApi(sessions.update, { params: { id }, body: update }),
  deleteSession: (id: string) => callApi(sessions.remove, { params: { id } }),
  restoreSession: (id: string, trash: string) => callApi(sessions.restore, { params: { id }, body: { trash } }),
  searchSessions: (q: string, signal?: AbortSignal) => callApi(sessions.search, { query: { q }, signal }),
  stopSession: (id: string) => callApi(chat.stop, { params: { id } }),
  /** A message behind the session's running turn: a follow-up (the next turn) or a steer (into this one). */
  queueMessage: (id: string, message: string, mode: QueueItem["mode"], tools = true, model?: string, attachments: string[] = []) =>
    callApi(chat.chat, {
      body: { message, session_id: id, stream: true, queue: mode, ...(tools ? {} : { tools: false }), ...(model ? { model } : {}), ...(attachments.length ? { attachments } : {}) },
    }) as Promise<ChatQueuedReply>,
  attachmentUrl: (id: string) => urlOf(contract.attachments.read, { id }),
  attachmentText: (id: string) => callApi(contract.attachments.text, { params: { id } }),
  dequeue: (id: string, qid: string) => callApi(chat.dequeue, { params: { id, qid } }),
  forkSession: (id: string, turn: number) => callApi(sessions.fork, { params: { id }, body: { turn } }),
  importSession: (exported: unknown) => callApi(sessions.import, { body: exported as never }),
  exportUrl: (id: string, format: "md" | "json") => urlOf(sessions.export, { id }, { format }),
  skills: () => callApi(skills.list),
  approvals: () => callApi(approvals.list),
  mcp: () => callApi(mcp.status),
  changes: (id: string, turn?: number) => callApi(changes.list, { params: { id }, query: { turn: turn ? String(turn) : undefined } }),
  changeDiff: (change: string, path: string) => callApi(changes.diff, { params: { change }, query: { path } }),
  revertChange: (change: string, path: string, force = false) => callApi(changes.revert, { body: { change, path, ...(force ? { force } : {}) } }),
  rewind: (id: string, body: { turn: number; files: boolean; conversation: boolean; on_conflict?: "fail" | "skip" | "overwrite" }) => callApi(changes.rewind, { params: { id }, body }),
  restartMcp: (name: string) => callApi(mcp.restart, { params: { name } }),
  knowledgeStatus: () => callApi(knowledge.status),
  knowledgeDocuments: () => callApi(knowledge.documents).then((r) => r.documents),
  knowledgeSource: (path: string) => callApi(knowledge.source, { query: { path } }),
  knowledgeSearch: (q: string, k = 10) => callApi(knowledge.search, { query: { q, k: String(k) } }),
  knowledgeRebuild: () => callApi(knowledge.rebuild),
  removeKnowledge: (path: string) => callApi(knowledge.remove, { query: { path } }),
  restoreKnowledge: (trash: string) => callApi(knowledge.restore, { body: { trash } }),
  decideApproval: (id: string, decision: ApprovalDecision) => callApi(approvals.decide, { params: { id }, body: decision }),
  installSkill: (archive: Blob, filename: string) => callApi(skills.install, { query: { filename }, raw: { data: archive, contentType: "application/zip" } }),
  files: () => callApi(files.list).then((r) => r.files),
  readFile: (path: string) => callApi(files.read, { query: { path } }),
  saveFile: (path: string, content: string) => callApi(files.save, { body: { path, content } }),
  agents: () => callApi(agents.status),
  setReviewer: (enabled: boolean) => callApi(agents.reviewer, { body: { enabled } }),
  compact: (id: string) => callApi(chat.compact, { params: { id }, body: {} }),
  model: () => callApi(model.read),
  testModel: (settings: ModelSettingsUpdate) => callApi(model.test, { body: settings }),
  saveModel: (settings: ModelSettingsUpdate) => callApi(model.save, { body: settings }),
  models: () => callApi(models.list),
  saveProfile: (name: string, profile: ProfileUpdate) => callApi(models.save, { params: { name }, body: profile }),
  deleteProfile: (name: string) => callApi(models.remove, { params: { name } }),
  testProfile: (profile: ProfileUpdate & { name?: string }) => callApi(models.test, { body: profile }),
  setDefaultProfile: (name: string) => callApi(models.settings, { body: { default: name } }),
  prompt: (sessionId: string | null) => callApi(prompt.read, { query: { session_id: sessionId ?? undefined } }),
};
