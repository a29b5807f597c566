import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { type Config, isModelConfigured } from "../../config/config.js";
import { modelNotConfiguredMessage } from "../../chat/chat-deps.js";
import type { KnowledgeBase } from "../../knowledge/knowledge-base.js";
import type { SandboxStatus } from "../../sandbox/sandbox.js";
import { loadPolicy } from "../../approvals/approval-file.js";
import type { McpHub } from "../../mcp/mcp-hub.js";
import type { ModelProfiles } from "../../models/model-profiles.js";
import type { TasksFileStore } from "../../tasks/tasks-file.js";
import type { Hooks } from "../../hooks/hooks.js";
import { routeOf, typed } from "../api-route.js";
import { NO_TRACING, type Tracing } from "../../telemetry/tracing.js";

const started = Date.now();

interface HealthDeps {
  config: Config;
  version: string;
  sandbox: SandboxStatus;
  pythonPath: string | null;
  knowledge: KnowledgeBase;
  mcp: McpHub;
  tracing: Tracing | null;
  models: ModelProfiles;
  tasks: Pick<TasksFileStore, "problem" | "value">;
  hooks: Pick<Hooks, "problem" | "list">;
}

export async function healthRoutes(app: FastifyInstance, { config, version, sandbox, pythonPath, knowledge, mcp, tracing, models, tasks, hooks }: HealthDeps) {
  typed(app).route({
    ...routeOf(api.health.health),
    handler: async () => {
    // The default profile: what a new session talks to.
    const profile = models.resolve(models.defaultName()) ?? models.resolve("default")!;
    const configured = isModelConfigured(profile.model);
    return {
      ok: true as const,
      version,
      data_root: config.dataRoot,
      location_prefix: config.locationPrefix,
      // Whether a key is set, never the key.
      model: {
        configured,
        model: configured ? profile.model.model : null,
        base_url: profile.model.baseUrl,
        ...(configured ? {} : { hint: modelNotConfiguredMessage(config, profile.name) }),
      },
      sandbox: {
        mode: sandbox.mode,
        detail: sandbox.detail,
        network: sandbox.network,
        ...(sandbox.mode === "degraded" ? { hint: "Install bubblewrap (apt-get install bubblewrap) and restart; see ENV.md." } : {}),
      },
      knowledge: (({ documents, chunks, mode, embedder }) => ({ documents, chunks, mode, embedder: embedder.label, ...(embedder.error ? { error: embedder.error } : {}) }))(knowledge.status()),
      python: pythonPath ? { available: true } : { available: false, hint: "Install python3 (apt-get install python3) for python_repl." },
      approvals: { problem: (await loadPolicy(config.dataRoot)).problem },
      models: { default: models.defaultName(), count: models.names().length, problem: models.problem },
      tasks: { count: tasks.value.tasks.length, heartbeat: tasks.value.heartbeat?.enabled === true, problem: tasks.problem },
      hooks: { count: hooks.list().filter((hook) => !hook.refused).length, problem: hooks.problem },
      mcp: mcp.health(),
      tracing: tracing?.status() ?? NO_TRACING,
      uptime_s: Math.round((Date.now() - started) / 1000),
    };
    },
  });
}
