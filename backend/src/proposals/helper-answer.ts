/**
 * What the memory helper answers (a consolidation run, Save as skill): JSON with edits to the memory
 * files and skills to add or change. Read leniently (a code fence, prose around it), checked strictly:
 * an edit of another shape is dropped and said, never guessed at.
 */
import { proposalSourceSchema } from "@mini-openclaw/protocol";
import { z } from "zod";
import { jsonInAnswer } from "../lib/json-in-answer.js";

const editSchema = z.object({
  op: z.enum(["add", "change", "remove"]),
  old: z.string().max(20_000).optional(),
  text: z.string().max(50_000).optional(),
  reason: z.string().max(2000).optional(),
  sources: z.array(z.unknown()).max(50).optional(),
});

const memoryEntrySchema = z.object({ file: z.string().max(300), summary: z.string().max(2000).optional(), edits: z.array(z.unknown()).max(200) });

const skillEntrySchema = z.object({
  name: z.string().max(200),
  description: z.string().max(1024),
  /** The instructions (the Markdown after the frontmatter). */
  body: z.string().max(100_000),
  /** Why it is worth keeping (a name that exists already makes it a change of that skill's whole file). */
  reason: z.string().max(2000).optional(),
  sources: z.array(z.unknown()).max(50).optional(),
});

const answerSchema = z.object({ memory: z.array(z.unknown()).max(20).optional(), skills: z.array(z.unknown()).max(20).optional() });

export type HelperSource = z.infer<typeof proposalSourceSchema>;
export interface HelperEdit {
  op: "add" | "change" | "remove";
  old?: string;
  text?: string;
  reason: string;
  sources: HelperSource[];
}
export interface HelperMemory {
  file: string;
  summary: string;
  edits: HelperEdit[];
}
export interface HelperSkill {
  name: string;
  description: string;
  body: string;
  reason: string;
  sources: HelperSource[];
}
export interface HelperAnswer {
  memory: HelperMemory[];
  skills: HelperSkill[];
  /** What was dropped as not the asked shape, said to the user with the run. */
  dropped: string[];
}

const sourcesOf = (raw: unknown[] | undefined): HelperSource[] => (raw ?? []).flatMap((s) => {
  const parsed = proposalSourceSchema.safeParse(s);
  return parsed.success ? [parsed.data] : [];
});

/** The helper's answer read, or null when it holds no JSON of that shape at all. */
export function parseHelperAnswer(answer: string): HelperAnswer | null {
  const top = jsonInAnswer(answer, (value) => {
    const parsed = answerSchema.safeParse(value);
    return parsed.success && (parsed.data.memory !== undefined || parsed.data.skills !== undefined) ? parsed.data : null;
  });
  if (!top) return null;
  const dropped: string[] = [];
  const memory: HelperMemory[] = [];
  for (const [i, raw] of (top.memory ?? []).entries()) {
    const entry = memoryEntrySchema.safeParse(raw);
    if (!entry.success) {
      dropped.push(`memory[${i}]: not {file, edits}`);
      continue;
    }
    const edits: HelperEdit[] = [];
    for (const [j, rawEdit] of entry.data.edits.entries()) {
      const edit = editSchema.safeParse(rawEdit);
      const problem = !edit.success ? "not {op, old, text}" : edit.data.op !== "add" && !edit.data.old ? `a ${edit.data.op} without 'old'` : edit.data.op !== "remove" && !edit.data.text ? `an ${edit.data.op} without 'text'` : null;
      if (problem || !edit.success) {
        dropped.push(`memory[${i}].edits[${j}]: ${problem}`);
        continue;
      }
      const { op, old, text, reason, sources } = edit.data;
      edits.push({ op, ...(op !== "add" ? { old } : {}), ...(op !== "remove" ? { text } : {}), reason: reason ?? "", sources: sourcesOf(sources) });
    }
    memory.push({ file: entry.data.file, summary: entry.data.summary ?? "", edits });
  }
  const skills: HelperSkill[] = [];
  for (const [i, raw] of (top.skills ?? []).entries()) {
    const skill = skillEntrySchema.safeParse(raw);
    if (!skill.success) {
      dropped.push(`skills[${i}]: not {name, description, body}`);
      continue;
    }
    skills.push({ ...skill.data, reason: skill.data.reason ?? "", sources: sourcesOf(skill.data.sources) });
  }
  return { memory, skills, dropped };
}
