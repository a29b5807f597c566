import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { type Config, isModelConfigured } from "../../config/config.js";
import { modelNotConfiguredMessage } from "../../chat/chat-deps.js";
import type { KnowledgeBase } from "../../knowledge/knowledge-base.js";
import type { SandboxStatus } from "../../sandbox/sandbox.js";
import { loadPolicy } from "../../approvals/approval-file.js";
import type { McpHub } from "../../mcp/mcp-hub.js";
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
}

export async function healthRoutes(app: FastifyInstance, { config, version, sandbox, pythonPath, knowledge, mcp, tracing }: HealthDeps) {
  typed(app).route({
    ...routeOf(api.health.health),
    handler: async () => {
    const configured = isModelConfigured(config.model);
    return {
      ok: true as const,
      version,
      data_root: config.dataRoot,
      location_prefix: config.locationPrefix,
      // Whether a key is set, never the key.
      model: {
        configured,
        model: configured ? config.model.model : null,
        base_url: config.model.baseUrl,
        ...(configured ? {} : { hint: modelNotConfiguredMessage(config) }),
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
      mcp: mcp.health(),
      tracing: tracing?.status() ?? NO_TRACING,
      uptime_s: Math.round((Date.now() - started) / 1000),
    };
    },
  });
}
