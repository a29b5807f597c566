/**
 * The skills list in the system prompt at 50, 150 and 500 skills: its size against its budget, how
 * many descriptions were shortened and skills left out, the whole prompt's size, and the time to scan
 * and render. Descriptions are 120 to 330 characters (the spread of Anthropic's public skills).
 * Run: pnpm bench:skills
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PromptReply, SkillsReply } from "@mini-openclaw/protocol";
import { DEFAULT_LIMITS } from "../src/config/config.js";
import { estimateTokens } from "../src/context/context-budget.js";
import { scanSkills } from "../src/skills/scan-skills.js";
import { renderSnapshot } from "../src/skills/skills-snapshot.js";
import { startWorkbench } from "../test-support/workbench-harness.js";

const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sentence = "Reads the files the user names, checks them against the rules in its reference folder, and reports each problem with a fix. ";

function description(i: number): string {
  const length = 120 + ((i * 37) % 211);
  return `Use for request type ${i}. ${sentence.repeat(3)}`.slice(0, length).trim().replaceAll('"', "'");
}

const wb = await startWorkbench({ env: { LOG_LEVEL: "silent" } });
console.log(`skills list budget: ${DEFAULT_LIMITS.skillsListChars} characters; whole prompt budget: ${DEFAULT_LIMITS.promptBudgetChars}`);
console.log("skills | list chars | list tokens~ | listed | shortened | left out | prompt chars | scan+render median");
let written = 0;
for (const target of [50, 150, 500]) {
  for (; written < target; written++) {
    const name = `bench-${String(written).padStart(3, "0")}`;
    await mkdir(join(wb.dataRoot, "skills", name), { recursive: true });
    await writeFile(join(wb.dataRoot, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: "${description(written)}"\n---\n\n## Steps\n${"1. Do the thing carefully.\n".repeat(30)}`);
  }
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const scan = await scanSkills(wb.dataRoot, ".");
    renderSnapshot(scan.skills, DEFAULT_LIMITS.skillsListChars);
    times.push(performance.now() - t0);
  }
  const { list } = (await (await fetch(`${wb.url}/api/skills`)).json()) as SkillsReply;
  const prompt = (await (await fetch(`${wb.url}/api/prompt`)).json()) as PromptReply;
  const total = list.listed + list.omitted.length;
  console.log(
    `${String(total).padStart(6)} | ${String(list.chars).padStart(10)} | ${String(estimateTokens(list.chars)).padStart(12)} | ${String(list.listed).padStart(6)} | ` +
      `${String(list.shortened.length).padStart(9)} | ${String(list.omitted.length).padStart(8)} | ${String(prompt.total_chars).padStart(12)} | ${median(times).toFixed(1)} ms`,
  );
}
await wb.close();
await rm(wb.dataRoot, { recursive: true, force: true }).catch(() => {});
