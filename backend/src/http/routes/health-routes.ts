import type { HealthReply } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { type Config, isModelConfigured } from "../../config/config.js";
import { modelNotConfiguredMessage } from "../../chat/chat-turn.js";

const started = Date.now();

export async function healthRoutes(app: FastifyInstance, { config, version }: { config: Config; version: string }) {
  app.get("/api/health", async (): Promise<HealthReply> => {
    const configured = isModelConfigured(config.model);
    return {
      ok: true,
      version,
      data_root: config.dataRoot,
      // Whether a key is set, never the key.
      model: {
        configured,
        model: configured ? config.model.model : null,
        base_url: config.model.baseUrl,
        ...(configured ? {} : { hint: modelNotConfiguredMessage(config) }),
      },
      uptime_s: Math.round((Date.now() - started) / 1000),
    };
  });
}
