/**
 * The agent's daily log in the system prompt and `memory_search` (issue 30), through the real
 * workbench and the scripted model.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PromptReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { DAILY_LOG_BUDGET_CHARS, dailyLogPath, localDate } from "../src/memory/daily-log.js";
import { callsThenAnswer, resultsOf } from "../test-support/mcp-harness.js";
import { messageText } from "../test-support/scripted-model-server.js";
import { chat, sessionIdOf, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const today = () => localDate(new Date());
const yesterday = () => {
  const now = new Date();
  return localDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12));
};
const systemPrompt = (wb: Workbench, i: number) => messageText(wb.model.requests[i].body.messages[0].content);

async function writeLog(root: string, date: string, text: string) {
  await mkdir(join(root, "memory/logs"), { recursive: true });
  await writeFile(join(root, dailyLogPath(date)), text);
}

describe("the daily log in the system prompt", () => {
  it("holds yesterday's then today's log after MEMORY.md, shown in the prompt view, byte-identical while the files stay", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    await writeLog(wb.dataRoot, yesterday(), "- Met Ana about the Q3 report\n");
    await writeLog(wb.dataRoot, today(), "- User wants the zebra report on Fridays\n");
    await writeLog(wb.dataRoot, "2020-01-01", "- an old day that is not in the prompt\n");
    const id = sessionIdOf(await chat(wb, "hi"));
    await chat(wb, "again", id);
    const prompt = systemPrompt(wb, 0);
    expect(systemPrompt(wb, 1)).toBe(prompt);
    const memoryAt = prompt.indexOf('<file name="MEMORY.md"');
    const logAt = prompt.indexOf('<file name="Daily log"');
    expect(memoryAt).toBeGreaterThan(0);
    expect(logAt).toBeGreaterThan(memoryAt);
    expect(prompt.indexOf("Met Ana")).toBeLessThan(prompt.indexOf("zebra report"));
    expect(prompt).toContain(`memory/logs/${yesterday()}.md`);
    expect(prompt).not.toContain("an old day");

    const view = (await (await fetch(`${wb.url}/api/prompt?session_id=${id}`)).json()) as PromptReply;
    const section = view.sections.find((s) => s.name === "Daily log");
    expect(section).toMatchObject({ path: "memory/logs", truncated: false, missing: false });
    expect(section!.injected_chars).toBe(section!.text.length);
  });

  it("keeps within its own 8,000-character budget: the newest entries stay, the oldest go, with a marker", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const line = (day: string, i: number) => `- ${day} entry ${String(i).padStart(3, "0")}: ${"x".repeat(60)}`;
    await writeLog(wb.dataRoot, yesterday(), `${Array.from({ length: 100 }, (_, i) => line("yesterday", i)).join("\n")}\n`);
    await writeLog(wb.dataRoot, today(), `${Array.from({ length: 60 }, (_, i) => line("today", i)).join("\n")}\n`);
    const id = sessionIdOf(await chat(wb, "hi"));
    const view = (await (await fetch(`${wb.url}/api/prompt?session_id=${id}`)).json()) as PromptReply;
    const section = view.sections.find((s) => s.name === "Daily log")!;
    expect(section.text.length).toBeLessThanOrEqual(DAILY_LOG_BUDGET_CHARS);
    expect(section).toMatchObject({ truncated: true });
    expect(section.raw_chars).toBeGreaterThan(DAILY_LOG_BUDGET_CHARS);
    expect(section.text.split("\n")[0]).toMatch(/^\[… \d+ older characters of the daily logs left out; read them in .*memory\/logs\/.*\.md with read_file or memory_search\]$/);
    expect(section.text).toContain(line("today", 0));
    expect(section.text).toContain(line("today", 59));
    expect(section.text).toContain(line("yesterday", 99));
    expect(section.text).not.toContain(line("yesterday", 0));
    expect(systemPrompt(wb, 0)).toContain(section.text);
  });
});

describe("memory_search", () => {
  it("finds passages in MEMORY.md and every daily log, with their file and line", async () => {
    wb = await startWorkbench({ script: callsThenAnswer([{ name: "memory_search", args: { query: "which database did we choose" } }]) });
    await writeLog(wb.dataRoot, "2026-01-15", "# Notes\n\n- Standup moved to 10:00\n- Decided: the database is PostgreSQL 16\n- Lunch with Bo\n");
    await writeLog(wb.dataRoot, "2026-01-16", "- Nothing about storage here\n");
    await writeFile(join(wb.dataRoot, "memory/MEMORY.md"), "# Memory\n\nThe user likes short answers.\n");
    const events = await chat(wb, "what did we decide?");
    const result = resultsOf(events)[0];
    expect(result).toMatchObject({ ok: true });
    expect(result.output.split("\n")[0]).toMatch(/^\[1\] memory\/logs\/2026-01-15\.md:\d+ score/);
    expect(result.output).toContain("PostgreSQL 16");
    expect(result.details).toMatchObject({ files: 3, mode: "bm25" });
    expect(wb.model.requests[0].body.tools?.map((t) => t.function.name)).toContain("memory_search");
  });

  it("says so when nothing matches, and never reads a log that is a link", async () => {
    wb = await startWorkbench({ script: callsThenAnswer([{ name: "memory_search", args: { query: "zebra" } }]) });
    await mkdir(join(wb.dataRoot, "memory/logs"), { recursive: true });
    const { symlink } = await import("node:fs/promises");
    await symlink("/etc/passwd", join(wb.dataRoot, "memory/logs/2026-02-02.md"));
    const result = resultsOf(await chat(wb, "recall"))[0];
    expect(result.output).toMatch(/^No passage of your memory \(1 file\) matched\.$/);
  });
});
