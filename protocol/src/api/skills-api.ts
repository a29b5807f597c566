import { z } from "zod";
import { MAX_PATH_CHARS } from "./limits.js";
import { errorReplies, operation } from "./operation.js";

export const skillInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** As written into SKILLS_SNAPSHOT.md, e.g. `./backend/skills/get_weather/SKILL.md`. */
  location: z.string(),
  tags: z.array(z.string()),
  allowed_tools: z.array(z.string()).nullable(),
  /** For `terminal`, when the skill limits it (`Bash(git:*)`): the commands it may start with. */
  allowed_commands: z.array(z.string()).optional(),
  warnings: z.array(z.string()),
  /** Other files in the skill's folder (e.g. `skills/x/references/guide.md`), read on demand. */
  references: z.array(z.string()),
});
export type SkillInfo = z.infer<typeof skillInfoSchema>;

export const skillProblemSchema = z.object({ folder: z.string(), location: z.string(), reason: z.string() });
export type SkillProblem = z.infer<typeof skillProblemSchema>;

/** How the system prompt's skills list holds the valid skills, within its own character budget. */
export const skillsListStatsSchema = z.object({
  /** Skills in the list. */
  listed: z.number().int(),
  /** Listed skills whose description was shortened to fit. */
  shortened: z.array(z.string()),
  /** Valid skills left out of the list whole (a slash command still loads them). */
  omitted: z.array(z.string()),
  chars: z.number().int(),
  budget_chars: z.number().int(),
});
export type SkillsListStats = z.infer<typeof skillsListStatsSchema>;

export const skillsReplySchema = z.object({ skills: z.array(skillInfoSchema), problems: z.array(skillProblemSchema), list: skillsListStatsSchema }).meta({ id: "SkillsReply" });
export type SkillsReply = z.infer<typeof skillsReplySchema>;

/** `POST /api/skills/install`: the folders written under skills/. */
export const skillInstallReplySchema = z.object({ installed: z.array(z.string()) }).meta({ id: "SkillInstallReply" });
export type SkillInstallReply = z.infer<typeof skillInstallReplySchema>;

export const SKILL_ARCHIVE_TYPES = ["application/zip", "application/x-zip-compressed", "application/octet-stream"];

export const skillsApi = {
  list: operation({ method: "GET", path: "/api/skills", summary: "The skills as scanned now, their problems, and how the prompt's list holds them", responses: { 200: skillsReplySchema } }),
  install: operation({
    method: "POST",
    path: "/api/skills/install",
    summary: "Installs the skills of a .zip or .skill archive (the archive's bytes as the body)",
    querystring: z.object({ filename: z.string().max(MAX_PATH_CHARS).optional() }),
    rawBody: { contentTypes: SKILL_ARCHIVE_TYPES, description: "The archive's bytes." },
    responses: { 201: skillInstallReplySchema, ...errorReplies(400, 409, 413, 415, 422) },
  }),
};
