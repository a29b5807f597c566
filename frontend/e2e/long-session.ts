import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionEntry } from "@mini-openclaw/protocol";

/** Writes a session of `turns` full turns (thought, tool call with output, Markdown answer with code). */
export async function writeLongSession(dataRoot: string, id: string, turns: number): Promise<void> {
  const lines: string[] = [];
  const ts = new Date().toISOString();
  const push = (entry: SessionEntry) => lines.push(JSON.stringify(entry));
  for (let i = 0; i < turns; i++) {
    push({ type: "user", ts, content: `Question number ${i}: what does file ${i} say?` });
    push({ type: "thought", ts, step: 1, content: `I should read file ${i} first. `.repeat(6) });
    push({
      type: "tool",
      ts,
      step: 1,
      content: "",
      tool: { id: `call_${i}`, name: "read_file", input: { path: `knowledge/doc-${i}.md` }, output: `# Doc ${i}\n${"Some text of the document. ".repeat(60)}`, ok: true, duration_ms: 3 },
    });
    push({
      type: "assistant",
      ts,
      step: 2,
      content: `**Answer ${i}**: the file says several things.\n\n- point one\n- point two\n\n\`\`\`python\nprint(${i})\n\`\`\`\n`,
    });
  }
  await writeFile(join(dataRoot, "sessions", `${id}.jsonl`), `${lines.join("\n")}\n`);
}
