import { z } from "zod";
import { normalizeUserPath } from "../paths/confined-path.js";
import { isUnreadable, readConfinedText } from "../paths/read-confined-file.js";
import { parseSkill } from "../skills/parse-skill.js";
import { skillFolder } from "../skills/scan-skills.js";
import { withBaseDir } from "../skills/skill-base-dir.js";
import { HOOKS_DIR, SKILLS_DIR, STORAGE_DIR } from "../config/data-root-layout.js";
import type { Config } from "../config/config.js";
import { UserError } from "../lib/user-error.js";
import { settingsFile } from "../settings/settings-files.js";
import type { ActiveSkill } from "../skills/active-skill.js";
import { type CoreTool, defineTool } from "./core-tool.js";

/** Files larger than this are refused outright; smaller ones are paged with offset/limit. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const DEFAULT_LINE_LIMIT = 2000;

const schema = z.object({
  path: z
    .string()
    .describe("File path relative to the data root, or a skill's <location> exactly as written in the prompt."),
  offset: z.number().int().min(1).optional().describe("First line to read (1-based). Default 1."),
  limit: z.number().int().min(1).max(10_000).optional().describe(`How many lines to read. Default ${DEFAULT_LINE_LIMIT}.`),
});

/** `skills/<folder>/SKILL.md` → the skill's folder name. */
export function skillFolderOf(relPath: string): string | null {
  const parts = relPath.split("/");
  return parts.length === 3 && parts[0] === SKILLS_DIR && parts[2] === "SKILL.md" ? parts[1] : null;
}

/**
 * Reads a path of the data root; when it is not there and a skill is active, the same path in the
 * skill's folder: a SKILL.md says `references/guide.md` meaning its own folder, as Claude Code reads it.
 */
async function readInSkillFolder(config: Pick<Config, "dataRoot">, relPath: string, skill: ActiveSkill | null) {
  try {
    return { relPath, file: await readConfinedText(config.dataRoot, relPath, MAX_FILE_BYTES) };
  } catch (err) {
    if (!skill || !isUnreadable(err) || err.reason !== "missing" || relPath.startsWith(`${SKILLS_DIR}/`)) throw err;
    const inSkill = `${SKILLS_DIR}/${skillFolder(skill.location)}/${relPath}`;
    try {
      return { relPath: inSkill, file: await readConfinedText(config.dataRoot, inSkill, MAX_FILE_BYTES) };
    } catch {
      throw err;
    }
  }
}

/** `read_file`: a text file of the data root, paged. */
export const readFileTool = (config: Pick<Config, "dataRoot" | "locationPrefix" | "limits">): CoreTool<typeof schema> =>
  defineTool({
  name: "read_file",
  description:
    "Read a UTF-8 text file under the workbench data root (skills, memory, workspace, knowledge, sessions). " +
    "Accepts a skill's <location> exactly as listed in <available_skills>. Long files are returned in parts: " +
    "pass offset and limit (in lines) to read further. Paths outside the data root and KEY.md are refused.",
  schema,
  async execute(input, call) {
    const asked = normalizeUserPath(input.path, config.locationPrefix);
    if (asked.split("/")[0] === STORAGE_DIR) {
      throw new UserError("refused", `${STORAGE_DIR}/ holds the workbench's indexes and its trash; no tool reads it. Search the knowledge base with search_knowledge_base.`);
    }
    if (asked.split("/")[0] === HOOKS_DIR) {
      throw new UserError("refused", `${HOOKS_DIR}/ holds the user's hook scripts, which run outside the sandbox; no tool reads it.`);
    }
    if (settingsFile(asked)) {
      throw new UserError("refused", `${asked} is one of the workbench's settings files (it can hold credentials); no tool reads it. The user edits it in the Inspector.`);
    }
    const { relPath, file } = await readInSkillFolder(config, asked, call.activeSkill ?? null);
    const lines = file.content.split("\n");
    const offset = input.offset ?? 1;
    const limit = input.limit ?? DEFAULT_LINE_LIMIT;
    if (offset > lines.length && !(offset === 1 && file.content === "")) {
      return {
        ok: false,
        output: `Error: offset ${offset} is past the end of ${relPath} (${lines.length} lines).`,
      };
    }
    let text = lines.slice(offset - 1, offset - 1 + limit).join("\n");
    let lastLine = Math.min(lines.length, offset - 1 + limit);
    let cutByChars = false;
    if (text.length > config.limits.readFileChars) {
      text = text.slice(0, config.limits.readFileChars);
      lastLine = offset - 1 + text.split("\n").length;
      cutByChars = true;
    }
    const more = lastLine < lines.length;
    const note = more
      ? `\n\n[Showing lines ${offset}-${lastLine} of ${lines.length}${cutByChars ? " (character cap reached)" : ""}. ` +
        `Call read_file with offset=${lastLine + 1} to continue.]`
      : "";
    const folder = skillFolderOf(relPath);
    const parsed = folder ? parseSkill(file.content, folder) : null;
    return {
      ok: true,
      // A SKILL.md read from its start says where its skill lives (skill-base-dir.ts).
      output:
        folder && offset === 1
          ? withBaseDir(text + note, `${SKILLS_DIR}/${folder}`)
          : `${relPath !== asked ? `[${asked} is in the active skill's folder: ${relPath}]\n` : ""}${text}${note}`,
      details: { path: relPath, bytes: file.bytes, total_lines: lines.length, from_line: offset, to_line: lastLine, truncated: more },
      ...(folder
        ? {
            activatedSkill: {
              name: parsed?.ok ? parsed.skill.name : folder,
              location: `${config.locationPrefix}/${relPath}`,
              allowedTools: parsed?.ok ? parsed.skill.allowed_tools : null,
              allowedCommands: parsed?.ok ? (parsed.skill.allowed_commands ?? null) : null,
            },
          }
        : {}),
    };
  },
  });
