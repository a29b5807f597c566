/**
 * What the UI shows of the server, kept by TanStack Query and read again only when the server says it
 * changed (`GET /api/events`): no view polls. A reply stays fresh until an event, or an action of
 * this page, invalidates it.
 */
import { QueryClient, useQuery } from "@tanstack/react-query";
import type { UiEvent } from "@mini-openclaw/protocol";
import { api } from "./api";

export function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Fresh until an event says otherwise: no refetch on focus, on reconnect or on a timer.
      queries: { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false, refetchOnReconnect: false, retry: false },
    },
  });
}

/** The server's state, one key per thing the views show. */
export const keys = {
  health: ["health"] as const,
  models: ["models"] as const,
  sessions: ["sessions"] as const,
  skills: ["skills"] as const,
  files: ["files"] as const,
  agents: ["agents"] as const,
  mcp: ["mcp"] as const,
  approvals: ["approvals"] as const,
  knowledge: ["knowledge"] as const,
  knowledgeStatus: ["knowledge", "status"] as const,
  knowledgeDocuments: ["knowledge", "documents"] as const,
  tasks: ["tasks"] as const,
  hooks: ["hooks"] as const,
  webStatus: ["web"] as const,
  /** The review queue (its pages, each proposal's diff, the count on its button). */
  proposals: ["proposals"] as const,
  /** A session's file changes, each file marked when it is back to its state before the call. */
  changes: (sessionId: string) => ["changes", sessionId] as const,
  allChanges: ["changes"] as const,
  prompt: (sessionId: string | null) => ["prompt", sessionId] as const,
};

export const useHealth = () => useQuery({ queryKey: keys.health, queryFn: api.health });
export const useModels = () => useQuery({ queryKey: keys.models, queryFn: api.models });
export const useSessions = () => useQuery({ queryKey: keys.sessions, queryFn: api.sessions });
export const useSkills = () => useQuery({ queryKey: keys.skills, queryFn: api.skills });
export const useFiles = () => useQuery({ queryKey: keys.files, queryFn: api.files });
export const useAgents = () => useQuery({ queryKey: keys.agents, queryFn: api.agents });
export const useMcp = () => useQuery({ queryKey: keys.mcp, queryFn: api.mcp });
export const useApprovals = () => useQuery({ queryKey: keys.approvals, queryFn: api.approvals });
export const useKnowledgeStatus = () => useQuery({ queryKey: keys.knowledgeStatus, queryFn: api.knowledgeStatus });
export const useKnowledgeDocuments = () => useQuery({ queryKey: keys.knowledgeDocuments, queryFn: api.knowledgeDocuments });
export const useTasks = () => useQuery({ queryKey: keys.tasks, queryFn: api.tasks });
export const useHooks = () => useQuery({ queryKey: keys.hooks, queryFn: api.hooks });
export const useWebStatus = () => useQuery({ queryKey: keys.webStatus, queryFn: api.webStatus });
/** How many proposals wait for the user (the count on the Memory button and the Proposals row). */
export const usePendingProposals = () => useQuery({ queryKey: [...keys.proposals, "count"], queryFn: () => api.proposals({ state: "pending", limit: 1 }).then((r) => r.pending) });

/** The keys an event from the server makes stale. */
export function staleKeys(event: UiEvent): ReadonlyArray<readonly unknown[]> {
  switch (event.type) {
    case "refresh":
      switch (event.target) {
        case "skills":
          return [keys.skills, keys.files, ["prompt"]];
        case "files":
          return [keys.files, ["prompt"]];
        case "sessions":
          return [keys.sessions];
        case "agents":
          return [keys.agents];
        case "mcp":
          return [keys.mcp, ["prompt"]];
        case "approvals":
          return [keys.approvals];
        case "knowledge":
          return [keys.knowledge];
        case "health":
          // Model settings, profiles and the web search provider change with the health they show.
          return [keys.health, keys.models, keys.webStatus];
        case "tasks":
          return [keys.tasks, ["task-runs"]];
        case "hooks":
          return [keys.hooks];
        case "proposals":
          // An accepted proposal changed a file (a skill, a memory file, and the prompt they are in).
          return [keys.proposals, keys.files, keys.skills, keys.allChanges, ["prompt"]];
      }
      return [];
    case "turn":
      // A turn started or ended anywhere: the list shows it; an ended one sent its session's prompt.
      return event.running ? [keys.sessions] : [keys.sessions, keys.prompt(event.session_id), keys.changes(event.session_id), keys.hooks];
    case "review":
      return [keys.agents];
    case "task_run":
      // The run's session is listed under its task from its start.
      return [keys.tasks, ["task-runs", event.run.task_id], keys.sessions];
    case "file_changed":
    case "toast":
    case "queue":
      return [];
  }
}
