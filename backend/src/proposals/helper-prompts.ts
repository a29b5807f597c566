/**
 * What the memory helper is sent: the consolidation run's instructions with the memory files and
 * what is new, and Save as skill's with one turn's steps. Both ask for the JSON helper-answer.ts reads.
 */
import type { SessionEntry } from "@mini-openclaw/protocol";
import type { Material } from "./consolidation-material.js";

const ANSWER_SHAPE = [
  "Answer with one JSON object and nothing else:",
  "{",
  '  "memory": [{ "file": "memory/MEMORY.md" or "workspace/USER.md", "summary": "what these edits do",',
  '    "edits": [{ "op": "add" | "change" | "remove", "old": "the exact text it changes or removes (change, remove)",',
  '      "text": "the new text (add, change)", "reason": "why",',
  '      "sources": [{ "session_id": "…", "turn": 3 } or { "log": "memory/logs/YYYY-MM-DD.md", "line": 12 }] }] }],',
  '  "skills": [{ "name": "folder-name", "description": "when to use it", "body": "the steps, in Markdown", "reason": "why", "sources": [...] }]',
  "}",
].join("\n");

export function consolidationMessage(material: Material, files: Array<{ path: string; content: string | null }>, fileBudget: number): string {
  return [
    "You are the workbench's memory helper. Nobody is chatting with you: read what is new below and propose edits to the",
    "long-term memory files. A person reviews every edit before it is applied; you cannot write files.",
    "",
    "- Add facts worth keeping: the user's preferences and circumstances go to workspace/USER.md, the project's facts,",
    "  decisions and fixes that worked go to memory/MEMORY.md. One fact per line, short.",
    "- Change a fact the new material shows is wrong or out of date; remove one that is said twice.",
    "- `old` must be copied exactly from the file as shown below. Cite the turns and log lines each edit came from.",
    `- Keep each file under ${fileBudget} characters (what is over is cut from every prompt): fold facts together when one grows.`,
    "- A procedure that recurred, or that the user asked to keep, may be proposed as a skill.",
    "- Never copy keys, passwords or tokens into memory. Propose nothing rather than something doubtful.",
    "",
    ANSWER_SHAPE,
    "",
    ...files.flatMap(({ path, content }) => [`# ${path} as it is now`, content === null ? "(the file does not exist)" : content, ""]),
    `# What is new (${material.logs} daily logs, ${material.turns} turns of ${material.sessions} sessions; newest first)`,
    material.text || "(nothing new)",
    ...(material.skipped.length > 0 ? ["", "# Not read", ...material.skipped.map((s) => `- ${s}`)] : []),
  ].join("\n");
}

/** One turn's steps as Save as skill shows them to the helper: the message, each tool call with its input and the start of its output, the answer. */
export function turnSteps(entries: SessionEntry[], turn: number): { message: string; steps: string[]; answer: string } | null {
  const user = entries.find((e) => e.type === "user" && e.turn === turn);
  if (!user || user.type !== "user") return null;
  const steps: string[] = [];
  const results = new Map<string, { ok: boolean; output: string }>();
  let answer = "";
  const events = entries.flatMap((e) => (e.type === "event" && e.turn === turn ? [e.event] : []));
  for (const event of events) if (event.type === "tool_result") results.set(event.id, { ok: event.ok, output: event.output });
  for (const event of events) {
    if (event.type === "tool_call") {
      const result = results.get(event.id);
      const output = result ? `${result.ok ? "ok" : "failed"}: ${result.output.slice(0, 600)}${result.output.length > 600 ? " […]" : ""}` : "no result";
      steps.push(`${steps.length + 1}. ${event.name} ${JSON.stringify(event.input).slice(0, 2000)}\n   → ${output}`);
    } else if (event.type === "final") answer = event.content;
  }
  return { message: user.content, steps, answer };
}

export function saveAsSkillMessage(turn: { message: string; steps: string[]; answer: string }, source: { sessionId: string; turn: number }, name: string | undefined): string {
  return [
    "You are the workbench's memory helper. The user asked to keep what this turn did as a skill: a folder under skills/",
    "with a SKILL.md the agent reads when the task comes up again. Write the steps that worked (leave out the ones that",
    "failed and were retried), general enough to reuse, with the commands or tools as they were used. Propose exactly one",
    `skill${name ? ` named "${name}"` : " with a short, lowercase, hyphenated name"}; leave "memory" empty. Never copy keys, passwords or tokens.`,
    `Cite the turn as its source: { "session_id": "${source.sessionId}", "turn": ${source.turn} }.`,
    "",
    ANSWER_SHAPE,
    "",
    "# The user's message",
    turn.message,
    "",
    "# The steps (tool calls in order, with the start of each output)",
    turn.steps.length > 0 ? turn.steps.join("\n") : "(no tool calls)",
    "",
    "# The answer",
    turn.answer || "(none)",
  ].join("\n");
}
