import type { PromptReply, SkillsReply } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import { assemblePrompt } from "../../prompt/assemble-prompt.js";
import { type PromptLog, toReply } from "../../prompt/prompt-log.js";
import { assertSessionId } from "../../sessions/session-id.js";
import { scanSkills } from "../../skills/scan-skills.js";

/** What the agent is made of: its skills and its system prompt. */
export async function workspaceRoutes(app: FastifyInstance, deps: { config: Config; prompts: PromptLog }) {
  const { config, prompts } = deps;

  app.get("/api/skills", async (): Promise<SkillsReply> => scanSkills(config.dataRoot, config.locationPrefix));

  /**
   * With `session_id`: the prompt that session's last turn was sent, exactly. Without (or before
   * the session's first turn in this process): a preview assembled from the files as they are now.
   */
  app.get<{ Querystring: { session_id?: string } }>("/api/prompt", async (request): Promise<PromptReply> => {
    const sessionId = request.query.session_id;
    if (sessionId !== undefined && sessionId !== "") {
      const sent = prompts.get(assertSessionId(sessionId));
      if (sent) return sent;
    }
    return toReply(null, await assemblePrompt(config.dataRoot, config.locationPrefix, config.limits));
  });
}
