/**
 * Search over Chinese text (issue 36's finding: a Chinese question found nothing, because a run of
 * Han characters was one "word"): the knowledge base, memory_search and session search each find a
 * planted fact by a question worded differently from the passage, with a mixed Chinese-English
 * query too; and a keyword in a store of one or two documents scores above zero.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { KnowledgeSearchReply, KnowledgeStatusReply, SessionSearchReply, ToolResultEvent } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { writeSessionFile } from "../test-support/session-files.js";
import { chat, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const FACT = "青石镇的古钟每天敲响十二下，声音能传到对面的山谷。";
const QUESTION = "青石镇的古钟每天敲响几下？";
/** Other passages about towns and bells, so the fact has to win on its own words. */
const OTHERS = [
  "白沙村的渔民每天清晨出海，傍晚带着鱼回到港口。",
  "山城的寺庙里有一口铜钟，只在新年的时候敲响。",
  "河口镇的集市每周开放三次，卖蔬菜和草药。",
  "The Riverside library opens at nine and closes at six on weekdays.",
  "机器学习模型需要大量的训练数据 (training data) 才能得到好的结果。",
];

const status = async () => (await (await fetch(`${wb!.url}/api/knowledge/status`)).json()) as KnowledgeStatusReply;
const search = async (q: string) => (await (await fetch(`${wb!.url}/api/knowledge/search?q=${encodeURIComponent(q)}&k=5`)).json()) as KnowledgeSearchReply;

describe("Chinese text is searchable", () => {
  it("the knowledge base: a Chinese question finds the Chinese passage (top 3), and so does a mixed Chinese-English query", async () => {
    wb = await startWorkbench();
    await mkdir(join(wb.dataRoot, "knowledge/towns"), { recursive: true });
    await writeFile(join(wb.dataRoot, "knowledge/towns/qingshi.md"), `# 青石镇\n\n${FACT}\n`);
    for (const [i, text] of OTHERS.entries()) await writeFile(join(wb.dataRoot, `knowledge/towns/other-${i}.md`), `${text}\n`);
    await expect.poll(async () => (await status()).documents, { timeout: 15_000 }).toBe(OTHERS.length + 1);
    await expect.poll(async () => (await status()).indexing.running, { timeout: 15_000 }).toBe(false);
    const found = await search(QUESTION);
    expect(found.results.slice(0, 3).map((r) => r.source)).toContain("knowledge/towns/qingshi.md");
    expect(found.results[0].source).toBe("knowledge/towns/qingshi.md");
    const mixed = await search("机器学习 training data 需要什么");
    expect(mixed.results[0].source).toBe("knowledge/towns/other-4.md");
  });

  it("a keyword of a store of one document scores above zero (Lucene's idf, never clamped to nothing)", async () => {
    wb = await startWorkbench();
    await writeFile(join(wb.dataRoot, "knowledge/only.md"), "Zucchini bread needs grated zucchini and walnuts.\n");
    await expect.poll(async () => (await status()).documents, { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => (await search("zucchini")).results.length, { timeout: 15_000 }).toBe(1);
    const [hit] = (await search("zucchini")).results;
    expect(hit.bm25).toBeGreaterThan(0);
  });

  it("memory_search: a Chinese question finds the daily log line that holds the fact", async () => {
    wb = await startWorkbench({
      script: (body) => (body.messages.some((m) => m.role === "tool") ? { content: "done" } : { toolCalls: [{ name: "memory_search", args: { query: QUESTION, k: 3 } }] }),
    });
    await mkdir(join(wb.dataRoot, "memory/logs"), { recursive: true });
    await writeFile(join(wb.dataRoot, "memory/logs/2026-03-01.md"), OTHERS.slice(0, 3).map((t) => `- ${t}`).join("\n") + "\n");
    await writeFile(join(wb.dataRoot, "memory/logs/2026-03-02.md"), `- 用户喜欢喝乌龙茶。\n- ${FACT}\n- 明天要去买菜。\n`);
    const events = await chat(wb, "recall the bell");
    const result = events.find((e): e is ToolResultEvent => e.type === "tool_result")!;
    expect(result.ok).toBe(true);
    const first = result.output.split("\n\n")[0];
    expect(first).toMatch(/^\[1\] memory\/logs\/2026-03-02\.md:\d+ score/);
    expect(first).toContain("十二下");
  });

  it("session search: a Chinese question finds the session and the turn that answered it; a mixed query too", async () => {
    wb = await startWorkbench();
    await writeSessionFile(wb.dataRoot, "bells", 3, (i) => (i === 2 ? { user: "古钟的事情你还记得吗", answer: FACT } : { user: `问题 ${i}`, answer: OTHERS[i % OTHERS.length] }));
    await writeSessionFile(wb.dataRoot, "fishing", 3, (i) => ({ user: `渔民 ${i}`, answer: OTHERS[0] }));
    await writeSessionFile(wb.dataRoot, "ml", 2, (i) => ({ user: `ml ${i}`, answer: OTHERS[4] }));
    const searched = async (q: string) => (await (await fetch(`${wb!.url}/api/sessions/search?q=${encodeURIComponent(q)}`)).json()) as SessionSearchReply;
    const found = await searched(QUESTION);
    expect(found.results.slice(0, 3).map((r) => r.id)).toContain("bells");
    expect(found.results[0]).toMatchObject({ id: "bells", turn: 2, snippet: expect.stringContaining("古钟") });
    expect((await searched("training 机器学习")).results.map((r) => r.id)).toEqual(["ml"]);
    // Latin words still must all match.
    expect((await searched("Riverside nothingsuch")).results).toEqual([]);
  });
});
