/**
 * The UI in the user's language (issue 41) in a real Chromium against the real backend: a browser set
 * to zh-CN gets every view, dialog, the palette, a turn with tool cards, an approval card and a toast
 * in Chinese, with no catalog key and no English sentence of the catalogs on screen, and dates in
 * Chinese; English and back without a reload (the top bar's switch and the palette), remembered;
 * axe-core finds nothing serious in either language.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { postJson, startWorkbench } from "../../backend/test-support/workbench-harness";
import { en } from "../src/i18n/messages-en";
import { zh } from "../src/i18n/messages-zh";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const zhText = zh as Record<string, string>;
/** The English sentences of the catalog (the fixed parts around `{{values}}` and tags), as they would show untranslated. */
const ENGLISH = [
  ...new Set(
    Object.entries(en)
      .filter(([key, text]) => zhText[key] !== text)
      .flatMap(([, text]) => text.split(/\{\{[^}]*\}\}|<\/?\w+>/))
      .map((part) => part.trim())
      .filter((part) => part.length >= 8 && /[a-z]{3,} [a-z]{2,}/i.test(part)),
  ),
];
const KEYS = Object.keys(en).filter((key) => key.includes("."));

/** What on screen is not in Chinese: catalog keys shown raw, and English sentences of the catalog. */
async function leftovers(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    const attrs = Array.from(document.querySelectorAll("[aria-label], [placeholder], [data-tip]")).flatMap((el) => ["aria-label", "placeholder", "data-tip"].map((a) => el.getAttribute(a) ?? ""));
    return `${document.body.innerText}\n${attrs.join("\n")}`;
  });
  return [...KEYS.filter((key) => text.includes(key)), ...ENGLISH.filter((sentence) => text.includes(sentence))];
}

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).exclude(".monaco-editor").analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

const VIEWS = ["chat", "tasks", "memory", "skills", "knowledge", "agents", "approvals", "mcp", "settings"] as const;

describe.skipIf(!chromiumAvailable)("the workbench in Chinese and English", () => {
  const session = browserSession("languages");

  it("a zh-CN browser gets Chinese everywhere (views, dialogs, palette, tool cards, approval card, toast, dates); English and back without a reload; axe clean in both", async () => {
    const wb = session.use(
      await startWorkbench({
        env: { APPROVALS: "on" },
        script: (body) => {
          const done = body.messages.filter((m) => m.role === "tool").length;
          if (done === 0) return { toolCalls: [{ name: "read_file", args: { path: "memory/MEMORY.md" } }] };
          if (done === 1) return { toolCalls: [{ name: "terminal", args: { command: "touch workspace/zh-approved" } }] };
          return { content: "好的，都做完了。" };
        },
      }),
    );
    // A task, for its schedule in words and its next run as a date.
    const created = await postJson(`${wb.url}/api/tasks`, { name: "晨报", prompt: "总结今天的事。", schedule: { kind: "every", seconds: 7200 }, enabled: true });
    expect(created.status).toBe(201);

    const view = await session.open(wb.url, undefined, "light", false, "zh-CN");
    const { page } = view;
    await page.locator('html[lang="zh-CN"]').waitFor();
    await expect.poll(() => page.getByTestId("nav-chat").innerText()).toBe("对话");
    expect(await page.getByTestId("language").inputValue()).toBe("zh");
    expect(await page.getByTestId("composer").getAttribute("placeholder")).toBe(zh["composer.placeholder"]);
    // The first browser on a new data root (no WORKBENCH_LANGUAGE) is Chinese: the default files follow it.
    await expect.poll(() => readFile(join(wb.dataRoot, "workspace/SOUL.md"), "utf8"), { timeout: 15_000 }).toMatch(/^# 灵魂\n/);
    expect(await readFile(join(wb.dataRoot, "skills/get_weather/SKILL.md"), "utf8")).toContain("description: 某个城市的当前天气");

    // A turn: a tool card, an approval card, the answer.
    await page.getByTestId("composer").fill("读一下我的记忆，然后建个文件");
    await page.keyboard.press("Enter");
    const card = page.getByTestId("approval-card");
    await card.waitFor();
    expect(await card.innerText()).toContain("terminal 请求运行");
    expect(await card.getByTestId("approval-approve").innerText()).toBe("批准一次");
    expect(await leftovers(page)).toEqual([]);
    expect(await violations(page)).toEqual([]);
    await card.getByTestId("approval-approve").click();
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    expect(await page.getByTestId("approval-decision").innerText()).toBe("你已批准一次");
    expect(await page.getByTestId("tool-card").first().innerText()).toContain("成功");
    expect(await page.getByTestId("turn-footer").innerText()).toMatch(/秒|毫秒/);
    expect(await page.getByTestId("changed-files").innerText()).toContain("改动了 1 个文件");
    // The session's row: a relative time and a count in Chinese.
    await expect.poll(() => page.getByTestId("session-meta").first().innerText()).toMatch(/^(现在|\d+ 分钟前) · 2 条消息$/);
    await view.shot("workbench-zh");

    // Every view and the Inspector's tabs, in Chinese, axe-clean.
    const found: Record<string, string[]> = {};
    for (const nav of VIEWS) {
      await page.getByTestId(`nav-${nav}`).click();
      await page.waitForTimeout(300);
      found[nav] = [...(await leftovers(page)), ...(await violations(page))];
    }
    for (const tab of ["prompt", "changes", "files"]) {
      await page.getByTestId(`tab-${tab}`).click();
      await page.waitForTimeout(300);
      found[`inspector ${tab}`] = [...(await leftovers(page)), ...(await violations(page))];
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));

    // Dates: the task's next run, in Chinese.
    await page.getByTestId("nav-tasks").click();
    const task = page.getByTestId("task-card");
    expect(await task.getByTestId("task-schedule").innerText()).toBe("每 2 小时");
    expect(await task.getByTestId("task-next").innerText()).toMatch(/^下次： \d{4}年\d{1,2}月\d{1,2}日/);
    await page.getByTestId("task-new").click();
    await page.getByTestId("task-form").waitFor();
    expect([...(await leftovers(page)), ...(await violations(page))]).toEqual([]);
    await page.getByTestId("task-form").getByRole("button", { name: "取消" }).click();

    // The dialogs and the palette.
    await page.getByTestId("model-button").click();
    await page.getByTestId("model-test").waitFor();
    expect(await page.getByTestId("model-test").innerText()).toBe("测试连接");
    expect([...(await leftovers(page)), ...(await violations(page))]).toEqual([]);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+k");
    await page.getByTestId("palette-input").waitFor();
    expect(await page.getByTestId("palette-input").getAttribute("placeholder")).toBe(zh["palette.placeholder"]);
    expect([...(await leftovers(page)), ...(await violations(page))]).toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByTestId("nav-chat").click();
    await page.keyboard.press("Shift+?");
    await page.getByTestId("shortcuts").waitFor();
    expect(await page.getByTestId("shortcuts").innerText()).toContain("键盘快捷键");
    expect(await leftovers(page)).toEqual([]);
    await page.keyboard.press("Escape");

    // The Rewind dialog.
    await page.getByTestId("turn").first().hover();
    await page.getByTestId("rewind-turn").first().click();
    await page.getByTestId("rewind-dialog").waitFor();
    expect(await page.getByTestId("rewind-dialog").innerText()).toContain("回退到这一轮之前");
    expect([...(await leftovers(page)), ...(await violations(page))]).toEqual([]);
    await page.keyboard.press("Escape");

    // A toast: deleting the session says so, with Undo, in Chinese.
    const row = page.getByTestId("session-item").first();
    await row.hover();
    await row.getByTestId("session-delete").click();
    const toast = page.getByTestId("toast").last();
    await expect.poll(() => toast.innerText()).toContain("已删除");
    expect(await toast.getByTestId("toast-action").innerText()).toBe("撤销");
    await toast.getByTestId("toast-action").click();
    await expect.poll(() => page.getByTestId("session-item").count()).toBe(1);

    // English from the top bar's switch, without a reload; remembered over the browser's language.
    await page.getByTestId("language").selectOption("en");
    await expect.poll(() => page.getByTestId("nav-chat").innerText()).toBe("Chat");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    expect(await page.getByTestId("composer").getAttribute("placeholder")).toBe(en["composer.placeholder"]);
    await page.getByTestId("nav-tasks").click();
    await expect.poll(() => page.getByTestId("task-schedule").innerText()).toBe("every 2 hours");
    expect(await violations(page)).toEqual([]);
    await page.reload();
    await page.locator("html[data-ready=true]").waitFor();
    await expect.poll(() => page.getByTestId("nav-chat").innerText()).toBe("Chat");

    // And back to Chinese from the palette.
    await page.keyboard.press("Control+k");
    await page.getByTestId("palette-input").fill("中文");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("nav-chat").innerText()).toBe("对话");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh-CN");
  }, 120_000);

  it("a server error carries a stable code the UI words in Chinese, the server's own words kept as the detail", async () => {
    const wb = session.use(await startWorkbench({ script: [] }));
    const missing = await fetch(`${wb.url}/api/files?path=workspace/nope.md`);
    expect(missing.status).toBe(404);
    const body = (await missing.json()) as { error: string; code: string };
    expect(body.code).toBe("not_found");
    const view = await session.open(wb.url, undefined, "light", false, "zh-CN");
    const { page } = view;
    await page.locator('html[lang="zh-CN"]').waitFor();
    // A cron expression the server refuses (400, invalid_request): the form words the code in Chinese and keeps the parser's reason.
    await page.getByTestId("nav-tasks").click();
    await page.getByTestId("task-new").click();
    await page.getByTestId("task-cron").fill("0 25 * * *");
    const error = page.getByTestId("task-preview-error");
    await expect.poll(() => error.innerText(), { timeout: 5000 }).toMatch(/^请求无效（Invalid cron expression "0 25 \* \* \*": .+）$/);
    // The refused preview request, as the browser logs it.
    expect(view.errors).toEqual([expect.stringContaining("400 (Bad Request)")]);
    view.errors.length = 0;
  });
});
