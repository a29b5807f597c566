/**
 * Scale: the skills scan and snapshot with 1,000 skills; a 10,000-entry session opened over HTTP and
 * appended to; prompt assembly with every file at its limit. Run: pnpm --filter ./backend bench:scale
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionEntry } from "@mini-openclaw/protocol";
import { DEFAULT_LIMITS } from "../src/config/config.js";
import { assemblePrompt } from "../src/prompt/assemble-prompt.js";
import { SessionStore } from "../src/sessions/session-store.js";
import { refreshSkillsSnapshot } from "../src/skills/skills-snapshot.js";
import { startWorkbench } from "../test-support/workbench-harness.js";

const RUNS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
async function measure(fn: () => Promise<unknown>): Promise<{ median: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(fn));
  return { median: median(times), max: Math.max(...times) };
}
const fmt = (m: { median: number; max: number }) => `median ${m.median.toFixed(1)} ms (max ${m.max.toFixed(1)} ms, ${RUNS} runs)`;

const wb = await startWorkbench({ env: { LOG_LEVEL: "silent" } });
const root = wb.dataRoot;

// 1,000 skills
for (let i = 0; i < 1000; i++) {
  const dir = join(root, "skills", `skill_${String(i).padStart(4, "0")}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "SKILL.md"), `---\nname: skill_${String(i).padStart(4, "0")}\ndescription: Does task number ${i} <with> "care" & precision, when asked for it.\ntags: [a, b]\n---\n\n## Steps\n${"1. Do the thing carefully.\n".repeat(30)}`);
}
const scan = await measure(() => refreshSkillsSnapshot(root, "./backend", DEFAULT_LIMITS.skillsListChars));
console.log(`skills scan + snapshot, 1,000 skills: ${fmt(scan)}   (target ≤ 200 ms)`);

// A 10,000-entry session
const store = new SessionStore(root);
const id = "scale-session";
await store.create(id);
const ts = new Date().toISOString();
const lines: string[] = [JSON.stringify({ type: "header", ts, v: 2 } satisfies SessionEntry)];
for (let i = 0; i < 10_000; i++) {
  const entry: SessionEntry =
    i % 5 === 0
      ? { type: "user", ts, content: `question ${i}` }
      : i % 5 === 1
        ? { type: "event", ts, event: { type: "thought", content: "thinking ".repeat(20) } }
        : i % 5 === 2
          ? { type: "event", ts, event: { type: "tool_call", id: `c${i}`, name: "read_file", input: { path: "memory/MEMORY.md" }, step: 1, started_at: 0 } }
          : i % 5 === 3
            ? { type: "event", ts, event: { type: "tool_result", id: `c${i - 1}`, name: "read_file", output: "text ".repeat(100), ok: true, duration_ms: 2 } }
            : { type: "event", ts, event: { type: "final", content: `answer ${i} `.repeat(20), duration_ms: 5 } };
  lines.push(JSON.stringify(entry));
}
await writeFile(join(root, "sessions", `${id}.jsonl`), `${lines.join("\n")}\n`);
const open = await measure(async () => {
  const response = await fetch(`${wb.url}/api/sessions/${id}`);
  const body = (await response.json()) as { entries: unknown[] };
  if (body.entries.length !== 10_000) throw new Error("wrong entry count");
});
console.log(`GET /api/sessions/:id, 10,000 entries (${(lines.join("\n").length / 1024 / 1024).toFixed(1)} MB): ${fmt(open)}   (target ≤ 200 ms)`);

// Appending: the cost per entry stays flat as the session grows
const appendCost = async (count: number) => {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await store.append(id, { type: "event", ts, event: { type: "token", content: `appended ${i}` } });
  return (performance.now() - t0) / count;
};
const costs: string[] = [];
for (let round = 0; round < 4; round++) costs.push(`${(await appendCost(2500)).toFixed(3)} ms`);
console.log(`append cost per entry at 10k, 12.5k, 15k, 17.5k entries: ${costs.join(", ")}`);

// Prompt assembly with every file at its limit
for (const file of ["workspace/SOUL.md", "workspace/IDENTITY.md", "workspace/USER.md", "workspace/AGENTS.md", "memory/MEMORY.md"]) {
  await writeFile(join(root, file), "p".repeat(DEFAULT_LIMITS.promptFileChars));
}
await writeFile(join(root, "SKILLS_SNAPSHOT.md"), "s".repeat(DEFAULT_LIMITS.promptFileChars));
const prompt = await measure(() => assemblePrompt(root, "./backend", DEFAULT_LIMITS));
console.log(`prompt assembly, six files at the 20,000-character limit (over the 60,000 budget): ${fmt(prompt)}   (target ≤ 10 ms)`);

await wb.close();
