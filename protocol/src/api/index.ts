import { agentsApi } from "./agents-api.js";
import { attachmentsApi } from "./attachments-api.js";
import { approvalsApi } from "./approvals-api.js";
import { changesApi } from "./changes-api.js";
import { defaultsLanguageApi } from "./defaults-language-api.js";
import { chatApi } from "./chat-api.js";
import { filesApi } from "./files-api.js";
import { healthApi } from "./health-api.js";
import { hooksApi } from "./hooks-api.js";
import { knowledgeApi } from "./knowledge-api.js";
import { mcpApi } from "./mcp-api.js";
import { modelApi } from "./model-settings-api.js";
import { modelsApi } from "./model-profiles-api.js";
import type { Operation } from "./operation.js";
import { promptApi } from "./prompt-api.js";
import { proposalsApi } from "./proposals-api.js";
import { replayApi } from "./replay-api.js";
import { sessionsApi } from "./sessions-api.js";
import { skillsApi } from "./skills-api.js";
import { tasksApi } from "./tasks-api.js";
import { uiEventsApi } from "./ui-events-api.js";
import { webApi } from "./web-api.js";

export * from "./agents-api.js";
export * from "./attachments-api.js";
export * from "./approvals-api.js";
export * from "./changes-api.js";
export * from "./chat-api.js";
export * from "./defaults-language-api.js";
export * from "./files-api.js";
export * from "./health-api.js";
export * from "./hooks-api.js";
export * from "./knowledge-api.js";
export * from "./limits.js";
export * from "./mcp-api.js";
export * from "./model-settings-api.js";
export * from "./model-profiles-api.js";
export * from "./operation.js";
export * from "./prompt-api.js";
export * from "./proposals-api.js";
export * from "./replay-api.js";
export * from "./sessions-api.js";
export * from "./skills-api.js";
export * from "./tasks-api.js";
export * from "./ui-events-api.js";
export * from "./web-api.js";
export { openApiDocument } from "./openapi-document.js";

/** The whole API by route group: what the routes implement, the OpenAPI document describes, and the client calls. */
export const api = {
  chat: chatApi,
  attachments: attachmentsApi,
  sessions: sessionsApi,
  changes: changesApi,
  files: filesApi,
  skills: skillsApi,
  prompt: promptApi,
  proposals: proposalsApi,
  replay: replayApi,
  defaultsLanguage: defaultsLanguageApi,
  knowledge: knowledgeApi,
  agents: agentsApi,
  approvals: approvalsApi,
  model: modelApi,
  models: modelsApi,
  mcp: mcpApi,
  tasks: tasksApi,
  hooks: hooksApi,
  web: webApi,
  health: healthApi,
  uiEvents: uiEventsApi,
} satisfies Record<string, Record<string, Operation>>;

/** Every operation, each with its group (the OpenAPI tag). */
export const apiOperations = (): Array<{ group: string; name: string; op: Operation }> =>
  Object.entries(api).flatMap(([group, ops]) => Object.entries(ops as Record<string, Operation>).map(([name, op]) => ({ group, name, op })));
