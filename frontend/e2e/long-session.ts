import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionEntry } from "@mini-openclaw/protocol";

/** Writes a session of `turns` full turns (thought, tool call with output, Markdown answer with code). */
export async function writeLongSession(dataRoot: string, id: string, turns: number): Promise<void> {
  const lines: string[] = [];
  const ts = new Date().toISOString();
  const push = (entry: SessionEntry) => lines.push(JSON.stringify(entry));
  const event = (e: Extract<SessionEntry, { type: "event" }>["event"]) => push({ type: "event", ts, event: e });
  push({ type: "header", ts, v: 2 });
  for (let i = 0; i < turns; i++) {
    push({ type: "user", ts, content: `Question number ${i}: what does file ${i} say?` });
    event({ type: "thought", content: `I should read file ${i} first. `.repeat(6) });
    event({ type: "tool_call", id: `call_${i}`, name: "read_file", input: { path: `knowledge/doc-${i}.md` }, step: 1, started_at: Date.parse(ts) });
    event({ type: "tool_result", id: `call_${i}`, name: "read_file", output: `# Doc ${i}\n${"Some text of the document. ".repeat(60)}`, ok: true, duration_ms: 3 });
    const answer = `**Answer ${i}**: the file says several things.\n\n- point one\n- point two\n\n\`\`\`python\nprint(${i})\n\`\`\`\n`;
    event({ type: "token", content: answer });
    event({ type: "final", content: answer, duration_ms: 40 });
  }
  await writeFile(join(dataRoot, "sessions", `${id}.jsonl`), `${lines.join("\n")}\n`);
}
