import { api, SKILL_ARCHIVE_TYPES } from "@mini-openclaw/protocol";
import { UserError } from "../../lib/user-error.js";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import { installSkills } from "../../skills/install-skills.js";
import { ARCHIVE_LIMITS, readSkillArchive } from "../../skills/read-skill-archive.js";
import { scanSkills } from "../../skills/scan-skills.js";
import { renderSnapshot } from "../../skills/skills-snapshot.js";
import { routeOf, typed } from "../api-route.js";

/** The skills as scanned now, how the prompt's list holds them, and installing one from an archive. */
export async function skillRoutes(app: FastifyInstance, { config }: { config: Config }) {
  typed(app).route({
    ...routeOf(api.skills.list),
    handler: async () => {
      const scan = await scanSkills(config.dataRoot, config.locationPrefix);
      return { ...scan, list: renderSnapshot(scan.skills, config.limits.skillsListChars).stats };
    },
  });

  // Raw archive bytes as the body (what a dropped file's fetch sends); only on this plugin's routes.
  app.addContentTypeParser(SKILL_ARCHIVE_TYPES, { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  typed(app).route({
    ...routeOf(api.skills.install),
    bodyLimit: ARCHIVE_LIMITS.archiveBytes,
    handler: async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) {
        throw new UserError("unsupported_type", `Send the archive's bytes as the body, with Content-Type ${SKILL_ARCHIVE_TYPES[0]}.`);
      }
      const skills = await readSkillArchive(request.body, request.query.filename ?? "skill.zip");
      const installed = await installSkills(config.dataRoot, skills);
      request.log.info({ installed }, "skills installed from an archive");
      return reply.code(201).send({ installed });
    },
  });
}
