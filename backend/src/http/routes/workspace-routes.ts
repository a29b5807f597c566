import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import { assemblePrompt } from "../../prompt/assemble-prompt.js";
import { type PromptLog, toReply } from "../../prompt/prompt-log.js";
import { assertSessionId } from "../../sessions/session-id.js";
import { scanSkills } from "../../skills/scan-skills.js";
import { renderSnapshot } from "../../skills/skills-snapshot.js";
import { SNAPSHOT_FILE } from "../../config/data-root-layout.js";
import type { DefaultsLanguageChoice } from "../../workspace/defaults-language.js";
import { routeOf, typed } from "../api-route.js";

/** The system prompt the agent is sent (skills have skill-routes.ts), and the default files' language. */
export async function workspaceRoutes(app: FastifyInstance, deps: { config: Config; prompts: PromptLog; defaultsLanguage: DefaultsLanguageChoice }) {
  const { config, prompts, defaultsLanguage } = deps;

  typed(app).route({ ...routeOf(api.defaultsLanguage.read), handler: async () => defaultsLanguage.state });
  typed(app).route({ ...routeOf(api.defaultsLanguage.choose), handler: async (request) => defaultsLanguage.choose(request.body.language) });

  /**
   * With `session_id`: the prompt that session's last turn was sent, exactly. Without (or before
   * the session's first turn in this process): a preview assembled from the files as they are now.
   */
  typed(app).route({
    ...routeOf(api.prompt.read),
    handler: async (request) => {
      const sessionId = request.query.session_id;
      if (sessionId !== undefined && sessionId !== "") {
        const sent = prompts.get(assertSessionId(sessionId));
        if (sent) return sent;
      }
      // The preview is what a new session would be sent: the skills list as the skills are now.
      const { skills } = await scanSkills(config.dataRoot, config.locationPrefix);
      const snapshot = renderSnapshot(skills, config.limits.skillsListChars).text;
      return toReply(null, await assemblePrompt(config.dataRoot, config.locationPrefix, config.limits, { [SNAPSHOT_FILE]: snapshot }));
    },
  });
}
