import type { PromptSection } from "@mini-openclaw/protocol";
import type { Limits } from "../config/config.js";
import { estimateTokens } from "../context/context-budget.js";
import { isUnreadable, readConfinedText } from "../paths/read-confined-file.js";
import { PROMPT_FILES, SNAPSHOT_FILE } from "../config/data-root-layout.js";
import { dailyLogSection, LOGS_DIR } from "../memory/daily-log.js";

/** A prompt file is read up to this size; past it, it is refused (the prompt shows only 20,000 characters anyway). */
export const PROMPT_FILE_MAX_BYTES = 4 * 1024 * 1024;

export const TRUNCATION_MARK = "...[truncated]";

export interface AssembledPrompt {
  text: string;
  sections: PromptSection[];
  totalChars: number;
  budgetChars: number;
}

interface Section {
  name: string;
  path: string;
  location: string;
  /** null when the file is missing or refused. */
  raw: string | null;
  /** Why a file that exists was refused (symlink, FIFO, too large...). */
  problem: string | null;
  /** Characters of `raw` kept. */
  keep: number;
  /** The source's size when `raw` was cut before assembly (the daily logs). */
  rawChars?: number;
}

/** The section of yesterday's and today's daily logs (memory/logs/), after MEMORY.md. */
export const DAILY_LOG_SECTION = "Daily log";

/** Over the total budget, the later files give way first (the daily logs, then MEMORY.md), SKILLS/SOUL/IDENTITY last. */
const GIVE_WAY_ORDER = [DAILY_LOG_SECTION, "MEMORY.md", "AGENTS.md", "USER.md", "IDENTITY.md", "SOUL.md", "SKILLS_SNAPSHOT.md"];

function body(section: Section): string {
  if (section.problem !== null) {
    return `[unreadable: ${section.location} was refused (${section.problem}). Tell the user if this file matters to the request.]`;
  }
  if (section.raw === null) {
    return `[missing: ${section.location} does not exist. Tell the user if this file matters to the request.]`;
  }
  if (section.keep >= section.raw.length) return section.raw;
  return (
    `${section.raw.slice(0, section.keep)}\n${TRUNCATION_MARK}\n` +
    `[${section.name} is cut here: ${section.keep} of ${section.raw.length} characters shown. ` +
    `The full file is ${section.location}; read the rest with read_file (offset/limit).]`
  );
}

function render(section: Section): string {
  const missing = section.problem !== null ? ' unreadable="true"' : section.raw === null ? ' missing="true"' : "";
  return `<file name="${section.name}" path="${section.location}"${missing}>\n${body(section)}\n</file>`;
}

/**
 * Reads one prompt file by the data root's rules. A missing file (or a folder in its place) is
 * named missing; a link, a FIFO, a device, a hard link or an oversized file is refused with its
 * reason, never followed or read.
 */
async function readPromptFile(dataRoot: string, path: string): Promise<{ raw: string | null; problem: string | null }> {
  try {
    return { raw: (await readConfinedText(dataRoot, path, PROMPT_FILE_MAX_BYTES)).content, problem: null };
  } catch (err) {
    if (!isUnreadable(err)) throw err;
    if (err.reason === "missing" || err.reason === "folder") return { raw: null, problem: null };
    return { raw: null, problem: problemLabel(err.reason) };
  }
}

/** Short, stable words for the prompt (no sizes or timings: the prompt must stay byte-identical). */
function problemLabel(reason: string): string {
  switch (reason) {
    case "symlink":
      return "symlink refused";
    case "not-regular":
      return "not a regular file";
    case "hard-link":
      return "hard link refused";
    case "too-large":
      return `over the ${PROMPT_FILE_MAX_BYTES}-byte limit`;
    case "binary":
      return "a binary file";
    default:
      return reason;
  }
}

const SEPARATOR = "\n\n";
const totalLength = (sections: Section[]) =>
  sections.reduce((n, s) => n + render(s).length, 0) + SEPARATOR.length * (sections.length - 1);

/**
 * Assembles the system prompt from the six workspace files, in PRODUCT.md section 4's order.
 * A pure function of the files' contents: no dates, no ids, so unchanged files give a
 * byte-identical prompt and provider prompt caches keep hitting.
 */
export async function assemblePrompt(
  dataRoot: string,
  locationPrefix: string,
  limits: Pick<Limits, "promptFileChars" | "promptBudgetChars"> & Partial<Pick<Limits, "skillsListChars">>,
  /** Section contents to use instead of the files (a session's frozen skills snapshot). */
  overrides: Partial<Record<string, string>> = {},
  /** Which day's logs are "today" and "yesterday" (the server's local date). */
  now: Date = new Date(),
): Promise<AssembledPrompt> {
  const sections: Section[] = await Promise.all(
    PROMPT_FILES.map(async ({ name, path }) => {
      const override = overrides[name];
      const { raw, problem } = override !== undefined ? { raw: override, problem: null } : await readPromptFile(dataRoot, path);
      return {
        name,
        path,
        location: `${locationPrefix}/${path}`,
        raw,
        problem,
        // The skills list is rendered within its own budget (skills-snapshot.ts), not the per-file limit.
        keep: raw === null ? 0 : Math.min(raw.length, path === SNAPSHOT_FILE ? Math.max(limits.skillsListChars ?? 0, limits.promptFileChars) : limits.promptFileChars),
      };
    }),
  );
  // The daily logs, cut to their own budget already (newest kept): present only when a log exists.
  const logs = await dailyLogSection(dataRoot, locationPrefix, now);
  if (logs) sections.push({ name: DAILY_LOG_SECTION, path: LOGS_DIR, location: `${locationPrefix}/${LOGS_DIR}`, raw: logs.text, problem: null, keep: logs.text.length, rawChars: logs.rawChars });

  for (const name of GIVE_WAY_ORDER) {
    const section = sections.find((s) => s.name === name);
    if (!section || section.raw === null) continue;
    let overflow = totalLength(sections) - limits.promptBudgetChars;
    while (overflow > 0 && section.keep > 0) {
      section.keep = Math.max(0, section.keep - overflow);
      overflow = totalLength(sections) - limits.promptBudgetChars;
    }
    if (overflow <= 0) break;
  }

  const text = sections.map(render).join(SEPARATOR);
  return {
    text,
    totalChars: text.length,
    budgetChars: limits.promptBudgetChars,
    sections: sections.map((s) => ({
      name: s.name,
      path: s.path,
      missing: s.raw === null && s.problem === null,
      ...(s.problem !== null ? { problem: s.problem } : {}),
      truncated: s.raw !== null && (s.keep < s.raw.length || (s.rawChars ?? 0) > s.raw.length),
      raw_chars: s.rawChars ?? s.raw?.length ?? 0,
      injected_chars: body(s).length,
      token_estimate: estimateTokens(body(s).length),
      text: body(s),
    })),
  };
}

/**
 * The prompt with a section the workbench wrote (not a workspace file), after the others: fixed for a
 * session like its skills snapshot, so the prompt stays byte-identical turn after turn.
 */
export function withGeneratedSection(prompt: AssembledPrompt, name: string, path: string, text: string): AssembledPrompt {
  const rendered = `<workbench name="${name}" source="${path}">\n${text}\n</workbench>`;
  const full = `${prompt.text}${SEPARATOR}${rendered}`;
  return {
    ...prompt,
    text: full,
    totalChars: full.length,
    sections: [
      ...prompt.sections,
      { name, path, missing: false, truncated: false, raw_chars: text.length, injected_chars: text.length, token_estimate: estimateTokens(text.length), text },
    ],
  };
}
