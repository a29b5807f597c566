/**
 * The system prompt each turn was sent, kept with its session so a replay can send it again and a diff
 * can say what changed between two turns: each distinct prompt once, by its hash
 * (`storage/prompts/<sha256>.json`, its sections), and per session which turn got which
 * (`storage/prompts/sessions/<id>.jsonl`). Most turns share the prompt of the turn before: a line each.
 */
import { createHash } from "node:crypto";
import { appendFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { STORAGE_DIR } from "../config/data-root-layout.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { readConfinedTextIfPresent } from "../paths/read-confined-file.js";

const PROMPTS_DIR = `${STORAGE_DIR}/prompts`;
const MAX_PROMPT_FILE_BYTES = 8 * 1024 * 1024;
const MAX_INDEX_BYTES = 16 * 1024 * 1024;
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

export const keptSectionSchema = z.object({ name: z.string(), path: z.string(), text: z.string() });
export type KeptSection = z.infer<typeof keptSectionSchema>;
export interface KeptPrompt {
  sha256: string;
  text: string;
  sections: KeptSection[];
}
const keptPromptSchema = z.object({ sha256: z.string(), text: z.string(), sections: z.array(keptSectionSchema) });
const indexLineSchema = z.object({ turn: z.number().int().positive(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

export class PromptHistory {
  /** Prompts written this run (not written again). */
  private readonly written = new Set<string>();

  constructor(private readonly dataRoot: string) {}

  /** Keeps the prompt a session's turn is sent. */
  async keep(sessionId: string, turn: number, prompt: { text: string; sections: ReadonlyArray<{ name: string; path: string; text: string }> }): Promise<string> {
    const sha256 = createHash("sha256").update(prompt.text).digest("hex");
    if (!this.written.has(sha256)) {
      const kept: KeptPrompt = { sha256, text: prompt.text, sections: prompt.sections.map((s) => ({ name: s.name, path: s.path, text: s.text })) };
      await writeConfinedAtomic(this.dataRoot, `${PROMPTS_DIR}/${sha256}.json`, JSON.stringify(kept), { mode: 0o600 });
      this.written.add(sha256);
    }
    if (!SESSION_ID.test(sessionId)) return sha256;
    await mkdir(join(this.dataRoot, PROMPTS_DIR, "sessions"), { recursive: true, mode: 0o700 });
    await appendFile(join(this.dataRoot, PROMPTS_DIR, "sessions", `${sessionId}.jsonl`), `${JSON.stringify({ turn, sha256 })}\n`, { mode: 0o600 });
    return sha256;
  }

  /** The prompt a session's turn was sent, or null when it was not kept (a turn from before, or a file gone). */
  async forTurn(sessionId: string, turn: number): Promise<KeptPrompt | null> {
    if (!SESSION_ID.test(sessionId)) return null;
    const index = await readConfinedTextIfPresent(this.dataRoot, `${PROMPTS_DIR}/sessions/${sessionId}.jsonl`, MAX_INDEX_BYTES).catch(() => null);
    let sha: string | null = null;
    for (const line of (index ?? "").split("\n")) {
      const parsed = indexLineSchema.safeParse(parseJson(line));
      if (parsed.success && parsed.data.turn === turn) sha = parsed.data.sha256;
    }
    if (!sha) return null;
    const text = await readConfinedTextIfPresent(this.dataRoot, `${PROMPTS_DIR}/${sha}.json`, MAX_PROMPT_FILE_BYTES).catch(() => null);
    if (text === null) return null;
    const kept = keptPromptSchema.safeParse(parseJson(text));
    return kept.success ? kept.data : null;
  }
}

/** A line or file the workbench wrote, read back (a torn write is nothing). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
