import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ChatRequestBody, lastMessage, messageText, systemPromptOf } from "../../backend/test-support/scripted-model-server";
import { startWorkbench, type Workbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable, chromiumRequired, launch, openPage, type WatchedPage } from "./browser";
import { checkAndClosePage } from "./page-checks";
import { writeLongSession } from "./long-session";
import { writeSessionFile } from "../../backend/test-support/session-files";
import { pagedPdf } from "../../backend/test-support/minimal-pdf";

/** Monaco takes keyboard input through its hidden textarea once the editor has focus. */
async function focusEditor(page: import("playwright-core").Page) {
  await page.locator(".monaco-editor .view-lines").waitFor();
  await page.locator(".monaco-editor .view-lines").click();
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".monaco-editor") !== null)).toBe(true);
}

/** The editor's visible text (Monaco renders spaces as no-break spaces). */
async function editorText(page: import("playwright-core").Page): Promise<string> {
  return (await page.locator(".monaco-editor .view-lines").innerText()).replace(/\u00a0/g, " ");
}

describe("browser tests can run", () => {
  it.runIf(chromiumRequired)("CI has Chromium", () => expect(chromiumAvailable, "CI must install chromium (.ci/run)").toBe(true));
});

/** The weather skill, with pauses so the test can look at the Stage while the turn is still streaming. */
function slowWeatherModel(body: ChatRequestBody) {
  const last = lastMessage(body);
  if (last.role === "tool") {
    return {
      firstByteDelayMs: 3000, // a window in which the tool card is done but the turn still streams
      chunkDelayMs: 40,
      content: "**Paris**: sunny, 21 °C.\n\n| Day | Max |\n|---|---|\n| Sat | 22 °C |\n\n```python\nprint('forecast')\n```",
    };
  }
  const location = /<name>get_weather<\/name>[\s\S]*?<location>([^<]+)<\/location>/.exec(systemPromptOf(body))?.[1] ?? "";
  return {
    reasoning: "The user asks about weather. I should read the get_weather skill first.",
    // Twelve words over ~1.8 s: the window in which the thought streams, open, on a loaded machine too.
    chunkDelayMs: 150,
    toolCalls: [{ name: "read_file", args: { path: location } }],
  };
}

describe.skipIf(!chromiumAvailable)("the three-pane IDE", () => {
  let browser: Browser;
  let wb: Workbench;
  let view: WatchedPage;

  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => browser?.close());
  afterEach(async (context) => {
    // A failed step leaves a picture of the page behind (test-results/screenshots/failed-*.png), in CI too.
    if (context.task.result?.state === "fail") await view?.shot(`failed-${context.task.name.slice(0, 40).replace(/\W+/g, "-")}`).catch(() => {});
    await checkAndClosePage(view);
    await wb?.close();
  });

  it("streams a weather turn (thought, read_file card with output, answer) and replays it after a reload", async () => {
    wb = await startWorkbench({ script: slowWeatherModel });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await expect.poll(() => page.getByTestId("sidebar").isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("stage").isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("inspector").isVisible()).toBe(true);

    // The empty Stage's example is a button that asks it.
    await page.getByTestId("start-example").click();
    const turn = page.getByTestId("turn").last();

    // While the stream is still running: the thought block, open...
    await page.getByTestId("thought-block").first().waitFor();
    expect(await turn.getAttribute("data-status")).toBe("streaming");
    expect(await page.getByTestId("thought-block").first().getAttribute("data-state")).toBe("open");
    // ...then the read_file card on the skill with its output, still before the answer.
    const card = page.locator('[data-testid="tool-card"][data-tool="read_file"][data-status="ok"]');
    await card.waitFor();
    expect(await turn.getAttribute("data-status")).toBe("streaming");
    await expect.poll(() => card.innerText()).toContain("./skills/get_weather/SKILL.md");
    await card.getByRole("button").first().click();
    await expect.poll(() => card.getByTestId("tool-output").innerText()).toContain("name: get_weather");
    await expect.poll(() => page.getByTestId("skill-activation").count()).toBe(1);
    await view.shot("weather-streaming");

    // Then the final answer, as Markdown with a table and highlighted code.
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    const answer = page.getByTestId("answer").last();
    await expect.poll(() => answer.innerText()).toContain("Paris: sunny, 21 °C.");
    await expect.poll(() => answer.locator("strong").innerText()).toBe("Paris");
    expect(await answer.locator("table").count()).toBe(1);
    expect(await answer.locator("code.hljs").count()).toBe(1);
    // The thoughts collapsed once done, each saying how long it took.
    expect(await page.getByTestId("thought-block").first().getAttribute("data-state")).toBe("closed");
    expect(await page.getByTestId("thought-block").first().locator("button").first().innerText()).toMatch(/^Thought for [\d.]+ (ms|s)$/);
    await view.shot("weather-done");

    // Reload, open the session from the Sidebar: the same turn.
    await page.goto(wb.url);
    await page.getByTestId("session-item").first().click();
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    // Rendered text, polled: a turn that just appeared may be skipped by content-visibility for a frame.
    await expect.poll(() => page.getByTestId("user-message").innerText()).toBe("What’s the weather in Paris?");
    expect(await page.getByTestId("thought-block").count()).toBe(1);
    expect(await page.locator('[data-testid="tool-card"][data-tool="read_file"][data-status="ok"]').count()).toBe(1);
    expect(await page.getByTestId("skill-activation").count()).toBe(1);
    await expect.poll(() => page.getByTestId("answer").last().innerText()).toContain("Paris: sunny, 21 °C.");
    // How long the turn took is stored with it.
    await expect.poll(() => page.getByTestId("turn-footer").innerText()).toMatch(/^\d+(\.\d)? s/);
  });

  it("edits MEMORY.md in Monaco, saves with Ctrl+S, finds it after a reload, and the next turn carries it", async () => {
    wb = await startWorkbench({ script: () => ({ content: "Noted." }) });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("nav-memory").click();
    await page.locator(".monaco-editor .view-lines").waitFor();
    expect(await page.getByTestId("editor-path").innerText()).toBe("memory/MEMORY.md");
    await focusEditor(page);
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText("\n- The user's cat is called Miso.");
    await page.getByTestId("dirty-marker").waitFor();
    await page.keyboard.press("Control+s");
    await page.getByTestId("dirty-marker").waitFor({ state: "detached" });
    expect(readFileSync(join(wb.dataRoot, "memory/MEMORY.md"), "utf8")).toContain("- The user's cat is called Miso.");

    await page.reload();
    await page.waitForSelector("html[data-ready='true']");
    await page.getByTestId("nav-memory").click();
    await page.locator(".monaco-editor .view-lines").waitFor();
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toContain("The user's cat is called Miso.");
    await view.shot("memory-saved");

    await page.getByTestId("nav-chat").click();
    await page.getByTestId("composer").fill("What is my cat called?");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    expect(systemPromptOf(wb.model.requests[0].body)).toContain("- The user's cat is called Miso.");
  });

  it("a failed save keeps the edit and shows why", async () => {
    wb = await startWorkbench();
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("nav-memory").click();
    await focusEditor(page);
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText("\nkept line");
    await page.route("**/api/files", (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 507, contentType: "application/json", body: '{"error":"disk full"}' }) : route.continue(),
    );
    await page.getByTestId("save").click();
    expect(await page.getByTestId("editor-error").innerText()).toContain("disk full");
    expect(await page.getByTestId("dirty-marker").isVisible()).toBe(true);
    expect(await editorText(page)).toContain("kept line");
    view.errors.length = 0; // the browser logs the refused save as a failed resource load
  });

  it("shows a model error in the Stage without losing the conversation, and Stop leaves a usable session", async () => {
    wb = await startWorkbench({
      script: [
        { content: "First answer." },
        { kind: "error", status: 500, message: "upstream exploded" },
        { content: "word ".repeat(300), chunkDelayMs: 30 },
        { content: "Still here." },
      ],
    });
    view = await openPage(browser, wb.url);
    const { page } = view;
    const send = async (text: string) => {
      await page.getByTestId("composer").fill(text);
      await page.keyboard.press("Enter");
    };
    await send("hello");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    await send("break please");
    await page.locator('[data-testid="turn"][data-status="error"]').waitFor();
    await expect.poll(() => page.getByTestId("turn-error").innerText()).toContain("The model endpoint answered 500: upstream exploded");
    await expect.poll(() => page.getByTestId("answer").first().innerText()).toBe("First answer.");
    await view.shot("model-error");

    await send("talk a lot");
    await page.getByTestId("answer").nth(1).waitFor();
    await page.getByTestId("stop").click();
    await page.locator('[data-testid="turn"][data-status="stopped"]').waitFor();
    // Continue: a new turn asks the model to go on; it is sent what the stopped answer had written.
    await page.getByTestId("continue-turn").click();
    await expect.poll(() => page.getByTestId("answer").last().innerText()).toBe("Still here.");
    expect(await page.getByTestId("turn").count()).toBe(4);
    expect(await page.getByTestId("user-message").last().innerText()).toBe("Continue from where you stopped.");
    const sent = wb.model.requests[3].body.messages;
    expect(sent.at(-2)).toMatchObject({ role: "assistant", content: expect.stringMatching(/^(word )+/) });
    expect(await page.getByTestId("continue-turn").count()).toBe(0);
    expect(await page.getByTestId("session-item").count()).toBe(1);
  });

  it("shows the prompt section by section and the health banner when no model is configured", async () => {
    wb = await startWorkbench({ noModel: true });
    await import("node:fs/promises").then((fs) => fs.writeFile(join(wb.dataRoot, "memory/MEMORY.md"), "m".repeat(25_000)));
    // A link planted where USER.md was: named as refused, never followed.
    await import("node:fs/promises").then(async (fs) => {
      await fs.rm(join(wb.dataRoot, "workspace/USER.md"));
      await fs.symlink("/proc/self/environ", join(wb.dataRoot, "workspace/USER.md"));
    });
    view = await openPage(browser, wb.url);
    const { page } = view;
    expect(await page.getByTestId("health-banner").innerText()).toContain("Chat is off until a model is set up. Choose Model");
    expect(await page.getByTestId("health-banner").innerText()).toContain("KEY.md");
    await page.getByTestId("tab-prompt").click();
    await page.getByTestId("prompt-view").waitFor();
    const names = await page.getByTestId("prompt-section").evaluateAll((els) => els.map((e) => e.getAttribute("data-name")));
    expect(names).toEqual(["SKILLS_SNAPSHOT.md", "SOUL.md", "IDENTITY.md", "USER.md", "AGENTS.md", "MEMORY.md"]);
    expect(await page.locator('[data-name="MEMORY.md"]').innerText()).toMatch(/truncated[\s\S]*25,000 → /);
    expect(await page.locator('[data-name="USER.md"] [data-testid=prompt-section-problem]').innerText()).toBe("symlink refused");
    await view.shot("prompt-view");
  });

  it("lists skills with problems, and opens a SKILL.md in the Inspector", async () => {
    wb = await startWorkbench();
    const fs = await import("node:fs/promises");
    await fs.mkdir(join(wb.dataRoot, "skills/broken"));
    await fs.writeFile(join(wb.dataRoot, "skills/broken/SKILL.md"), "no frontmatter here");
    await fs.mkdir(join(wb.dataRoot, "skills/get_weather/references"));
    await fs.writeFile(join(wb.dataRoot, "skills/get_weather/references/codes.md"), "# WMO codes\n");
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("nav-skills").click();
    await page.getByTestId("skill-item").first().click();
    expect(await page.getByTestId("editor-path").innerText()).toBe("skills/get_weather/SKILL.md");
    expect(await page.getByTestId("skill-problem").innerText()).toContain("no frontmatter");
    // A skill's files are folded under it until asked for.
    expect(await page.getByTestId("skill-references").count()).toBe(0);
    await page.locator('[data-skill="get_weather"]').getByTestId("skill-files-toggle").click();
    await page.getByTestId("skill-references").getByText("references/codes.md").click();
    expect(await page.getByTestId("editor-path").innerText()).toBe("skills/get_weather/references/codes.md");
    await view.shot("skills");
  });

  it("the Skills pane with 150 skills: counts, problems first, a filter, and a dropped .zip installs as a skill", async () => {
    wb = await startWorkbench();
    const fs = await import("node:fs/promises");
    for (let i = 0; i < 150; i++) {
      const name = `skill-${String(i).padStart(3, "0")}`;
      await fs.mkdir(join(wb.dataRoot, "skills", name, "fonts"), { recursive: true });
      const extra = i === 149 ? "x-unknown: 1\n" : "";
      await fs.writeFile(join(wb.dataRoot, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: "Skill number ${i}, for request type ${i}."\n${extra}---\n\nSteps.\n`);
      for (let f = 0; f < 5; f++) await fs.writeFile(join(wb.dataRoot, "skills", name, "fonts", `font-${f}.ttf`), "x");
    }
    await fs.mkdir(join(wb.dataRoot, "skills/zz-broken"));
    await fs.writeFile(join(wb.dataRoot, "skills/zz-broken/SKILL.md"), "no frontmatter here");
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("nav-skills").click();
    await page.getByTestId("skill-card").first().waitFor();
    expect(await page.getByTestId("skills-counts").innerText()).toMatch(/152 loaded · 1 with warnings · 1 rejected/);
    expect(await page.getByTestId("skill-card").count()).toBe(152);
    // Problems first: the rejected folder, then the skill with a warning, at the top of the pane (not 7,000 px down).
    const first = await page.locator('[data-testid="skill-problem"], [data-testid="skill-card"]').evaluateAll((cards) =>
      cards.slice(0, 2).map((c) => [c.getAttribute("data-testid"), c.textContent?.slice(0, 40), Math.round(c.getBoundingClientRect().top)]),
    );
    expect(first[0]).toEqual(["skill-problem", expect.stringContaining("zz-broken"), expect.any(Number)]);
    expect(first[1]).toEqual(["skill-card", expect.stringContaining("skill-149"), expect.any(Number)]);
    expect(first[0][2]).toBeLessThan(300);
    // Files folded: 150 skills with 5 files each show no file rows.
    expect(await page.getByTestId("sidebar-file").count()).toBe(0);
    await page.getByTestId("skills-filter").fill("skill-042");
    await expect.poll(() => page.getByTestId("skill-card").count()).toBe(1);
    expect(await page.getByTestId("skill-card").getAttribute("data-skill")).toBe("skill-042");
    await page.getByTestId("skills-filter").fill("");

    // A .zip dropped onto the pane, as a file manager drops one.
    const { zipSync } = await import("fflate");
    const archive = zipSync({ "dropped-skill/SKILL.md": new Uint8Array(Buffer.from("---\nname: dropped-skill\ndescription: Came in a zip.\n---\n\nDo it.\n")) });
    await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "dropped-skill.zip", { type: "application/zip" }));
      const pane = document.querySelector('[data-testid="skills-list"]')!;
      pane.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      pane.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    }, Buffer.from(archive).toString("base64"));
    await page.locator('[data-skill="dropped-skill"]').waitFor();
    expect(await page.getByTestId("toast").last().innerText()).toContain("Installed skills/dropped-skill from dropped-skill.zip");
    expect(readFileSync(join(wb.dataRoot, "skills/dropped-skill/SKILL.md"), "utf8")).toContain("Came in a zip.");
    expect(await page.getByTestId("skills-counts").innerText()).toMatch(/153 loaded/);
    await view.shot("skills-150");
  });

  it("sessions: search from the Sidebar opens the matching turn marked; rename, pin, delete with undo", async () => {
    wb = await startWorkbench();
    const qa = (i: number) => ({ user: `Garden question ${i}`, answer: `Water the beds every ${i} days.` });
    await writeSessionFile(wb.dataRoot, "garden-old", 20, (i) => (i === 15 ? { user: "Which rootstock for the quince?", answer: "Quince A suits a small garden." } : qa(i)), new Date("2025-05-01T00:00:00Z"));
    await writeSessionFile(wb.dataRoot, "recent", 2, (i) => ({ user: `Recent question ${i}`, answer: "Recent answer." }), new Date("2026-03-01T00:00:00Z"));
    view = await openPage(browser, wb.url);
    const { page } = view;
    const row = (id: string) => page.locator(`[data-testid="session-item"][data-session-id="${id}"]`);
    const order = () => page.getByTestId("session-item").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-session-id")));
    await row("recent").waitFor();
    expect(await order()).toEqual(["recent", "garden-old"]);

    // Search: the old session's turn 15, opened and marked.
    await page.getByTestId("session-search").fill("quince");
    const result = page.getByTestId("search-result");
    await result.first().waitFor();
    expect(await result.count()).toBe(1);
    expect(await result.innerText()).toContain("turn 15");
    await result.click();
    const marked = page.locator('[data-testid="turn"][data-highlighted="true"]');
    await marked.waitFor();
    expect(await marked.getAttribute("data-turn-number")).toBe("15");
    expect(await marked.getByTestId("user-message").innerText()).toBe("Which rootstock for the quince?");
    await expect.poll(() => marked.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const stage = document.querySelector('[data-testid="stage-scroll"]')!.getBoundingClientRect();
      return box.top >= stage.top - 1 && box.bottom <= stage.bottom + 1;
    })).toBe(true);
    await view.shot("search-result-opened");
    await page.getByTestId("session-search").fill("");

    // Rename inline.
    await row("recent").hover();
    await row("recent").getByTestId("session-rename").click();
    await page.getByTestId("session-title-input").fill("Renamed one");
    await page.getByTestId("session-title-input").press("Enter");
    await expect.poll(() => row("recent").getByTestId("session-title").innerText()).toBe("Renamed one");

    // Pin: the older session goes to the top.
    await row("garden-old").hover();
    await row("garden-old").getByTestId("session-pin").click();
    await expect.poll(order).toEqual(["garden-old", "recent"]);
    expect(await row("garden-old").getAttribute("data-pinned")).toBe("true");

    // Delete, then Undo from the toast: the same bytes are back.
    const file = join(wb.dataRoot, "sessions/recent.jsonl");
    const bytes = readFileSync(file);
    await row("recent").hover();
    await row("recent").getByTestId("session-delete").click();
    await expect.poll(order).toEqual(["garden-old"]);
    const toast = page.getByTestId("toast").filter({ hasText: "Deleted “Renamed one”" });
    await toast.getByTestId("toast-action").click();
    await expect.poll(order).toEqual(["garden-old", "recent"]);
    expect(readFileSync(file)).toEqual(bytes);
  });

  it("branches: edit a message and send it, switch between the versions, regenerate, fork", async () => {
    let n = 0;
    wb = await startWorkbench({ script: (body) => ({ content: `re#${++n}: ${messageText(lastMessage(body).content)}` }) });
    view = await openPage(browser, wb.url);
    const { page } = view;
    const turns = page.getByTestId("turn");
    const doneTurns = page.locator('[data-testid="turn"][data-status="done"]');
    for (const [i, text] of ["A", "B"].entries()) {
      await page.getByTestId("composer").fill(text);
      await page.keyboard.press("Enter");
      await expect.poll(() => doneTurns.count()).toBe(i + 1);
    }
    const second = turns.nth(1);
    await second.hover();
    await second.getByTestId("edit-message").click();
    await page.getByTestId("edit-input").fill("B edited");
    await page.getByTestId("edit-send").click();
    await expect.poll(() => second.getByTestId("branch-position").innerText()).toBe("2/2");
    expect(await second.getByTestId("user-message").innerText()).toBe("B edited");
    expect(await second.getByTestId("answer").innerText()).toBe("re#3: B edited");
    expect(await turns.count()).toBe(2);
    // The model saw the edited branch only.
    expect(JSON.stringify(wb.model.requests[2].body.messages)).not.toContain('"B"');

    await second.getByTestId("branch-prev").click();
    await expect.poll(() => second.getByTestId("user-message").innerText()).toBe("B");
    expect(await second.getByTestId("branch-position").innerText()).toBe("1/2");
    expect(await second.getByTestId("answer").innerText()).toBe("re#2: B");
    await second.getByTestId("branch-next").click();
    await expect.poll(() => second.getByTestId("user-message").innerText()).toBe("B edited");

    // Regenerate the answer: a third version of turn 2.
    await second.hover();
    await second.getByTestId("regenerate").click();
    await expect.poll(() => second.getByTestId("branch-position").innerText()).toBe("3/3");
    expect(await second.getByTestId("answer").innerText()).toBe("re#4: B edited");
    await view.shot("branches");

    // Save only: turn 1's message corrected in place, nothing runs again.
    const requests = wb.model.requests.length;
    await turns.first().hover();
    await turns.first().getByTestId("edit-message").click();
    await page.getByTestId("edit-input").fill("A fixed");
    await page.getByTestId("edit-save").click();
    await expect.poll(() => turns.first().getByTestId("user-message").innerText()).toBe("A fixed");
    expect(await turns.first().getByTestId("message-edited").count()).toBe(1);
    expect(await turns.count()).toBe(2);
    expect(wb.model.requests.length).toBe(requests);

    // Fork from the first turn: a new session holding only it.
    await turns.first().hover();
    await turns.first().getByTestId("fork-turn").click();
    await expect.poll(() => page.getByTestId("toast").last().innerText()).toContain("Forked into a new session");
    await expect.poll(() => turns.count()).toBe(1);
    expect(await turns.first().getByTestId("answer").innerText()).toBe("re#1: A");
    expect(await turns.first().getByTestId("user-message").innerText()).toBe("A fixed");
    expect(await page.getByTestId("session-item").count()).toBe(2);
  });

  it("approvals: the card shows the command; after a reload Approve once runs it; Always allow writes a rule the Approvals view shows; Deny's reason reaches the model", async () => {
    const calls = ["touch workspace/e2e-once", "expr 6 + 7", "touch workspace/e2e-denied"];
    wb = await startWorkbench({
      env: { APPROVALS: "on" },
      script: (body) => {
        const done = body.messages.filter((m) => m.role === "tool").length;
        return done < calls.length ? { toolCalls: [{ name: "terminal", args: { command: calls[done] } }] } : { content: "All three handled." };
      },
    });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("run the three commands");
    await page.keyboard.press("Enter");
    const card = page.getByTestId("approval-card");
    await card.waitFor();
    expect(await card.getByTestId("approval-subject").innerText()).toBe("touch workspace/e2e-once");
    expect(await card.innerText()).toContain("bubblewrap");
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(join(wb.dataRoot, "workspace/e2e-once"))).toBe(false);
    await view.shot("approval-card");
    // The Approvals view names the waiting call's session by its title, not its id.
    await page.getByTestId("session-title").first().waitFor();
    const title = await page.getByTestId("session-title").first().innerText();
    await page.getByTestId("nav-approvals").click();
    expect(await page.getByTestId("pending-approval-session").innerText()).toBe(title);
    await page.getByTestId("nav-chat").click();

    // A reload: the pending request is still there, and deciding it from the reloaded page works.
    await page.reload();
    await page.locator("html[data-ready=true]").waitFor();
    await card.waitFor();
    await card.getByTestId("approval-approve").click();
    await expect.poll(() => existsSync(join(wb!.dataRoot, "workspace/e2e-once")), { timeout: 10_000 }).toBe(true);

    // The next call asks: Always allow, with the proposed rule.
    const second = page.locator('[data-testid="approval-card"]').filter({ hasText: "expr 6" });
    await second.waitFor({ timeout: 10_000 });
    await second.getByTestId("approval-always").click();
    expect(await second.getByTestId("approval-rule").inputValue()).toBe("expr");
    await second.getByTestId("approval-rule-save").click();

    const third = page.locator('[data-testid="approval-card"]').filter({ hasText: "e2e-denied" });
    await third.waitFor({ timeout: 10_000 });
    await third.getByTestId("approval-deny").click();
    await third.getByTestId("approval-reason").fill("not in this folder");
    await third.getByTestId("approval-deny-confirm").click();
    await expect.poll(() => page.getByTestId("answer").last().innerText(), { timeout: 10_000 }).toBe("All three handled.");
    expect(existsSync(join(wb.dataRoot, "workspace/e2e-denied"))).toBe(false);
    const lastRequest = JSON.stringify(wb.model.requests.at(-1)!.body.messages);
    expect(lastRequest).toContain("Their reason: not in this folder");
    const decisions = await page.getByTestId("approval-decision").allInnerTexts();
    expect(decisions).toEqual(["Approved by you, once", "Approved by you; always allowed from now on: “expr”", "Denied by you: not in this folder"]);
    // The first call waited for a person (a reload long): its card says so apart from how long it ran (issue 56, item 7).
    const waitedCard = page.getByTestId("tool-card").first();
    expect(Number(await waitedCard.getByTestId("tool-duration").getAttribute("data-waited-ms"))).toBeGreaterThan(1000);
    expect(await waitedCard.getByTestId("tool-waited").innerText()).toMatch(/waited .+ for approval/);

    await page.getByTestId("nav-approvals").click();
    const terminal = page.locator('[data-testid="approval-policy"][data-tool="terminal"]');
    // The allow list (some sixty commands) wraps inside the Sidebar, folded after the first few; the new rule is in it.
    await terminal.getByTestId("approval-allow").waitFor();
    expect(await terminal.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await terminal.getByTestId("approval-allow-more").click();
    await expect.poll(() => terminal.getByTestId("approval-allow").innerText()).toContain("expr");
    expect(await terminal.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(JSON.parse(readFileSync(join(wb.dataRoot, "APPROVALS.json"), "utf8")).tools.terminal.allow).toContain("expr");
  });

  it("knowledge: the view lists documents (a broken one with its reason) and ranked passages with their scores; a citation opens its source at the line", async () => {
    wb = await startWorkbench({
      script: (body) =>
        body.messages.some((m) => m.role === "tool")
          ? { content: "Sauerkraut ferments for three weeks (knowledge/ferments.md (line 7)). Shipping costs fell (knowledge/annual.pdf (page 2))." }
          : { toolCalls: [{ name: "search_knowledge_base", args: { query: "how long does sauerkraut ferment" } }] },
    });
    const fs = await import("node:fs/promises");
    await fs.writeFile(join(wb.dataRoot, "knowledge/ferments.md"), "# Fermentation\n\nIntro line.\n\n## Cabbage\n\nSauerkraut is cabbage fermented by lactic acid bacteria for three weeks.\n");
    await fs.writeFile(join(wb.dataRoot, "knowledge/broken.pdf"), "%PDF-1.7 not really a PDF");
    await fs.writeFile(join(wb.dataRoot, "knowledge/annual.pdf"), pagedPdf([["Annual report", "Introduction."], ["Costs", "Shipping costs fell after the new depot opened."], ["Outlook"]]));
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("nav-knowledge").click();
    const broken = page.locator('[data-testid="knowledge-document"][data-state="failed"]');
    await broken.waitFor({ timeout: 15_000 });
    expect(await broken.innerText()).toContain("broken.pdf");
    expect((await broken.getByTestId("knowledge-reason").innerText()).length).toBeGreaterThan(5);
    expect(await page.locator('[data-testid="knowledge-document"][data-state="indexed"]').count()).toBeGreaterThan(0);
    expect(await page.getByTestId("knowledge-watch").isVisible()).toBe(false);
    await page.getByTestId("knowledge-details").locator("summary").click();
    expect(await page.getByTestId("knowledge-watch").innerText()).toMatch(/Follows changes by folder events \(\d+ folders watched\)/);
    await page.getByTestId("knowledge-query").fill("sauerkraut cabbage");
    await page.keyboard.press("Enter");
    const hit = page.getByTestId("knowledge-hit").first();
    await hit.waitFor();
    expect(await hit.innerText()).toContain("knowledge/ferments.md");
    expect(await hit.getByTestId("knowledge-scores").innerText()).toMatch(/fused \d\.\d+ · bm25 \d+\.\d+ · vec/);
    await view.shot("knowledge-view");

    // The agent cites the passage; the citation opens the source at that line, marked.
    await page.getByTestId("nav-chat").click();
    await page.getByTestId("composer").fill("how long does sauerkraut ferment?");
    await page.keyboard.press("Enter");
    const citation = page.getByTestId("citation").first();
    await citation.waitFor();
    expect(await citation.innerText()).toBe("knowledge/ferments.md (line 7)");
    await citation.click();
    await expect.poll(() => page.getByTestId("editor-path").innerText()).toBe("knowledge/ferments.md");
    const marked = page.locator(".monaco-editor .view-overlays .cited-line").first();
    await marked.waitFor();
    await expect.poll(async () => {
      const lineTop = await marked.evaluate((el) => el.getBoundingClientRect().top);
      const rows = await page.locator(".monaco-editor .view-line").evaluateAll((lines, top) => lines.filter((l) => Math.abs(l.getBoundingClientRect().top - (top as number)) < 2).map((l) => l.textContent), lineTop);
      return rows.join("").replace(/\u00a0/g, " ");
    }).toContain("Sauerkraut is cabbage fermented");

    // A PDF cited by page opens as its extracted text, read-only, at that page's first line.
    const pdfCitation = page.getByTestId("citation").nth(1);
    expect(await pdfCitation.innerText()).toBe("knowledge/annual.pdf (page 2)");
    await pdfCitation.click();
    await expect.poll(() => page.getByTestId("editor-path").innerText()).toBe("knowledge/annual.pdf");
    await expect.poll(() => page.getByTestId("extracted-note").innerText(), { timeout: 15_000 }).toBe("extracted text, by page · read-only");
    await expect.poll(async () => {
      const mark = page.locator(".monaco-editor .view-overlays .cited-line").first();
      if ((await mark.count()) === 0) return "";
      const top = await mark.evaluate((el) => el.getBoundingClientRect().top);
      const rows = await page.locator(".monaco-editor .view-line").evaluateAll((lines, t) => lines.filter((l) => Math.abs(l.getBoundingClientRect().top - (t as number)) < 2).map((l) => l.textContent), top);
      return rows.join("").replace(/\u00a0/g, " ");
    }, { timeout: 10_000 }).toMatch(/^Costs/);
    expect(await page.locator(".monaco-editor .view-line").allInnerTexts().then((lines) => lines.join("\n").replace(/\u00a0/g, " "))).toContain("── page 2 ──");
    await view.shot("knowledge-pdf-citation");
  });

  it("knowledge: a file added by the picker is stored byte for byte and indexed; removed by its trash button, it comes back with Undo", async () => {
    wb = await startWorkbench();
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("nav-knowledge").click();
    const bytes = Buffer.from("# Kombucha\n\nA fermented tea brewed with a SCOBY for ten days.\n");
    await page.getByTestId("knowledge-add-input").setInputFiles({ name: "kombucha.md", mimeType: "text/markdown", buffer: bytes });
    const row = page.locator('[data-testid="knowledge-document"][data-path="knowledge/kombucha.md"]');
    await row.waitFor({ timeout: 15_000 });
    await expect.poll(() => row.getAttribute("data-state")).toBe("indexed");
    await expect.poll(() => page.getByTestId("toast").last().innerText()).toContain("Added knowledge/kombucha.md (1 chunk).");
    expect(readFileSync(join(wb.dataRoot, "knowledge/kombucha.md")).equals(bytes)).toBe(true);
    await page.getByTestId("knowledge-query").fill("scoby tea");
    await page.getByTestId("knowledge-query").press("Enter");
    await expect.poll(() => page.getByTestId("knowledge-hit").first().innerText()).toContain("knowledge/kombucha.md");

    await row.hover();
    await row.getByTestId("knowledge-remove").click();
    await row.waitFor({ state: "detached", timeout: 10_000 });
    expect(existsSync(join(wb.dataRoot, "knowledge/kombucha.md"))).toBe(false);
    await page.getByTestId("toast-action").last().click();
    await row.waitFor({ timeout: 10_000 });
    expect(readFileSync(join(wb.dataRoot, "knowledge/kombucha.md")).equals(bytes)).toBe(true);
    await expect.poll(() => row.getAttribute("data-state"), { timeout: 10_000 }).toBe("indexed");
  });

  it("opens a 500-turn session at its end and reaches its first turn by scrolling up", async () => {
    wb = await startWorkbench();
    await writeLongSession(wb.dataRoot, "long-session", 500);
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("session-item").first().click();
    await page.getByText("Question number 499:").waitFor();
    expect(await page.getByTestId("turn").count()).toBeLessThan(500); // earlier turns come in as needed
    for (let i = 0; i < 200 && (await page.getByTestId("show-earlier").count()) > 0; i++) {
      await page.getByTestId("stage-scroll").evaluate((el) => (el.scrollTop = 0));
      await page.waitForTimeout(30);
    }
    expect(await page.getByTestId("user-message").first().textContent()).toBe("Question number 0: what does file 0 say?");
    expect(await page.getByTestId("turn").count()).toBe(500);
  });

  it("a turn cut short by a crash shows what was saved of its answer, marked interrupted", async () => {
    wb = await startWorkbench();
    const ts = new Date().toISOString();
    const lines = [
      { type: "user", ts, content: "Tell me a long story" },
      { type: "streaming", ts, channel: "text", step: 1, content: "Once upon a time " },
      { type: "streaming", ts, channel: "text", step: 1, content: "there was a workbench" },
    ];
    await import("node:fs/promises").then((fs) =>
      fs.writeFile(join(wb.dataRoot, "sessions", "crashed-session.jsonl"), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`),
    );
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("session-item").first().click();
    await expect.poll(() => page.getByTestId("answer").first().innerText()).toContain("Once upon a time there was a workbench");
    expect(await page.getByTestId("answer-interrupted").innerText()).toMatch(/Interrupted/);
  });

  it("a session written before format version 2 replays: the sub-agent's trace, the skill, the answer, the cut turn", async () => {
    wb = await startWorkbench();
    const fixture = readFileSync(join(import.meta.dirname, "../../backend/test/fixtures/v1-session.jsonl"), "utf8");
    await import("node:fs/promises").then((fs) => fs.writeFile(join(wb.dataRoot, "sessions", "20261123-170244-v1abcd.jsonl"), fixture));
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("session-item").first().click();
    await expect.poll(() => page.getByTestId("turn").count()).toBe(3);
    const first = page.getByTestId("turn").first();
    const researcher = first.locator('[data-testid="sub-agent"][data-agent="researcher"]');
    await expect.poll(() => researcher.getByTestId("answer").innerText()).toContain("The notes say: bring an umbrella.");
    expect(await researcher.locator('[data-testid="tool-card"][data-tool="read_file"]').count()).toBe(1);
    await expect.poll(() => first.getByTestId("skill-activation").innerText()).toContain("Skill active: get_weather");
    await expect.poll(() => first.getByTestId("answer").last().innerText()).toContain("It will rain: bring an umbrella.");
    const cut = page.getByTestId("turn").last();
    expect(await cut.getAttribute("data-status")).toBe("error");
    await expect.poll(() => cut.getByTestId("answer").innerText()).toContain("This answer will be");
    await expect.poll(() => cut.getByTestId("turn-error").innerText()).toContain("broke off mid-answer");
  });

  it("a model that thinks in <think> tags: a collapsible thought and an answer without tags; a cut answer is marked", async () => {
    wb = await startWorkbench({
      script: [
        { content: "<think>\nThe user wants the capital.\n</think>\n\nThe capital is **Paris**.", chunkChars: 4, chunkDelayMs: 5 },
        { content: "A very long answer that the token limit stops", cutAtChars: 20 },
      ],
    });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("capital of France?");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    await expect.poll(() => page.getByTestId("answer").innerText()).toBe("The capital is Paris.");
    expect(await page.getByTestId("thought-block").count()).toBe(1);
    await page.getByTestId("thought-block").locator("button").first().click();
    await expect.poll(() => page.getByTestId("thought-block").innerText()).toContain("The user wants the capital.");
    expect(await page.getByTestId("stage").innerText()).not.toContain("think>");

    await page.getByTestId("composer").fill("tell me more");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator('[data-testid="turn"][data-status="done"]').count()).toBe(2);
    await expect.poll(() => page.getByTestId("answer-cut").innerText()).toContain("output token limit");
    // And after a reload, from the session file.
    await page.reload();
    await page.getByTestId("session-item").first().click();
    await expect.poll(() => page.getByTestId("answer-cut").count()).toBe(1);
    expect(await page.getByTestId("thought-block").count()).toBe(1);
  });

  it("sets up the model in a dialog: Test connection reports what the server can do, and the next message works without a restart", async () => {
    const { mkdtemp, copyFile, readFile } = await import("node:fs/promises");
    const dir = await mkdtemp(join((await import("node:os")).tmpdir(), "moc-e2e-key-"));
    await copyFile(join(import.meta.dirname, "../../KEY.example.md"), join(dir, "KEY.example.md"));
    wb = await startWorkbench({
      noModel: true,
      keyFile: join(dir, "KEY.md"),
      script: (body) => (body.tools?.length && !body.messages.some((m) => m.role === "user" && messageText(m.content) === "hello")
        ? { toolCalls: [{ name: "read_file", args: { path: "memory/MEMORY.md" } }] }
        : { reasoning: "Counting.", content: "1 2 3 4 5, and hello." }),
    });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await expect.poll(() => page.getByTestId("model-button").innerText()).toContain("set up a model");
    // Nothing set up: the picker and the profile list say so, rather than name a model chat would not reach.
    expect(await page.getByTestId("model-select").locator("option").first().innerText()).toMatch(/^default · not set up/);
    await page.getByTestId("model-button").click();
    await page.getByTestId("model-dialog").waitFor();
    expect(await page.locator('[data-testid="profile-row"][data-profile="default"]').getByTestId("profile-summary").innerText()).toBe("not set up");
    // OpenAI's preset leaves the base URL empty, which means OpenAI's address, so that is what the field shows.
    const presets = page.getByTestId("model-presets");
    await presets.getByText("OpenAI", { exact: true }).click();
    expect(await page.getByTestId("model-base-url").getAttribute("placeholder")).toBe("https://api.openai.com/v1");
    // A server of one's own: Custom (OpenAI-compatible) empties the fields, marks itself, and the address is typed.
    await presets.getByTestId("preset-custom").click();
    expect(await presets.getByTestId("preset-custom").getAttribute("aria-pressed")).toBe("true");
    expect(await presets.getByText("OpenAI", { exact: true }).getAttribute("aria-pressed")).toBe("false");
    expect(await page.getByTestId("model-base-url").evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.getByTestId("model-base-url").getAttribute("placeholder")).toBe("https://llm.example.com/v1");
    await presets.getByText("Ollama").click();
    expect(await page.getByTestId("model-base-url").inputValue()).toBe("http://localhost:11434/v1");
    // A preset without a model name (vLLM serves what it was started with); the chosen one is marked.
    await page.getByTestId("model-presets").getByText("vLLM").click();
    expect(await page.getByTestId("model-presets").getByText("vLLM").getAttribute("aria-pressed")).toBe("true");
    expect(await page.getByTestId("model-presets").getByText("Ollama").getAttribute("aria-pressed")).toBe("false");
    await page.getByTestId("model-base-url").fill(wb.model.baseUrl);
    await page.getByTestId("model-api-key").fill("sk-e2e-typed-key-41d2");
    // A mistyped name: the scripted server answers for any name (as some do), so the model list is what warns.
    await page.getByTestId("model-name").fill("scripted-modle");
    await page.getByTestId("model-test").click();
    const listed = page.locator('[data-testid="model-check"][data-check="models"]');
    await expect.poll(() => listed.getAttribute("data-ok"), { timeout: 15000 }).toBe("warning");
    expect(await listed.innerText()).toContain('"scripted-modle" is not among them');
    await page.getByTestId("model-name").fill("");
    // No model named yet (a local server's preset names none): the test lists the server's models to pick from.
    expect(await page.getByTestId("model-name").inputValue()).toBe("");
    await page.getByTestId("model-test").click();
    await page.getByTestId("model-choice").filter({ hasText: "scripted-model" }).click();
    expect(await page.getByTestId("model-name").inputValue()).toBe("scripted-model");
    await page.getByTestId("model-test").click();
    await expect.poll(() => page.getByTestId("model-check").count(), { timeout: 15000 }).toBe(7);
    for (const check of ["models", "chat", "streaming", "reasoning", "usage", "tools", "vision"]) {
      expect(await page.locator(`[data-testid="model-check"][data-check="${check}"]`).getAttribute("data-ok")).toBe("true");
    }
    await view.shot("model-dialog");
    await page.getByTestId("model-save").click();
    await expect.poll(() => page.getByTestId("model-button").innerText()).toContain("scripted-model");
    // One Save, one toast: the server's notice, which every tab gets.
    await expect.poll(() => page.getByTestId("toast").allInnerTexts()).toEqual([expect.stringContaining("Model set: scripted-model")]);
    await page.waitForTimeout(500);
    expect(await page.getByTestId("toast").count()).toBe(1);
    expect(await readFile(join(dir, "KEY.md"), "utf8")).toContain("OPENAI_API_KEY=sk-e2e-typed-key-41d2");
    // What the test found is kept: the default profile takes images from now on.
    expect(JSON.parse(await readFile(join(wb.dataRoot, "MODELS.json"), "utf8")).profiles.default.capabilities).toEqual({ tools: true, vision: true, reasoning: true });
    // The key never comes back to the page.
    await page.getByTestId("model-button").click();
    await expect.poll(() => page.getByTestId("model-name").inputValue()).toBe("scripted-model");
    expect(await page.getByTestId("model-api-key").inputValue()).toBe("");
    expect(await page.content()).not.toContain("sk-e2e-typed-key-41d2");
    await page.keyboard.press("Escape");

    await page.getByTestId("composer").fill("hello");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("answer").last().innerText(), { timeout: 10000 }).toContain("and hello.");
    expect(wb.model.requests.at(-1)!.headers.authorization).toBe("Bearer sk-e2e-typed-key-41d2");
  });

  it("a model that takes no tools: the Stage offers to chat without them, and the session keeps that", async () => {
    wb = await startWorkbench({
      script: (body) => (body.tools?.length ? { kind: "error", status: 400, message: "registry.ollama.ai/library/gemma:2b does not support tools" } : { content: "Plain chat works." }),
    });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("hello");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("turn-error").innerText()).toContain("does not support tools");
    await page.getByTestId("chat-without-tools").click();
    await expect.poll(() => page.getByTestId("answer").last().innerText()).toContain("Plain chat works.");
    expect(await page.getByTestId("tools-off").count()).toBe(1);
    expect(await page.getByTestId("chat-without-tools").count()).toBe(0);
    await page.getByTestId("composer").fill("and again");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator('[data-testid="turn"][data-status="done"]').count()).toBe(2);
    expect(wb.model.requests.at(-1)!.body.tools).toBeUndefined();
    await page.reload();
    await page.getByTestId("session-item").first().click();
    await expect.poll(() => page.getByTestId("tools-off").count()).toBe(1);
  });

  it("typing / lists the skills; picking one and sending runs the skill with its arguments", async () => {
    wb = await startWorkbench({ script: () => ({ content: "Loaded the weather skill for Paris." }) });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("composer").click();
    await page.keyboard.type("/get");
    await page.getByTestId("slash-menu").waitFor();
    // Only the skills that match what was typed.
    expect(await page.getByTestId("slash-option").allInnerTexts()).toEqual([expect.stringContaining("/get_weather")]);
    await page.keyboard.press("Tab");
    expect(await page.getByTestId("composer").inputValue()).toBe("/get_weather ");
    expect(await page.getByTestId("slash-menu").count()).toBe(0);
    await page.keyboard.type("Paris");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    await expect.poll(() => page.getByTestId("user-message").innerText()).toBe("/get_weather Paris");
    await expect.poll(() => page.getByTestId("skill-activation").innerText()).toContain("Skill active: get_weather");
    expect(messageText(lastMessage(wb.model.requests[0].body).content)).toContain("the place asked for is: Paris");
    await view.shot("slash-command");

    // The built-in commands come first and run in the page; nothing is sent.
    const sent = wb.model.requests.length;
    await page.getByTestId("composer").fill("/");
    await page.getByTestId("slash-menu").waitFor();
    expect((await page.locator('[data-testid="slash-option"][data-kind="command"]').allInnerTexts()).map((t) => t.split("\n")[0])).toEqual(["/new", "/compact", "/model", "/help"]);
    await page.getByTestId("composer").fill("/he");
    await page.keyboard.press("Enter");
    await page.getByTestId("shortcuts").waitFor({ state: "visible" });
    expect(await page.getByTestId("composer").inputValue()).toBe("");
    await page.keyboard.press("Escape");
    await page.getByTestId("composer").fill("/new");
    await page.getByTestId("slash-menu").waitFor();
    await page.getByTestId("send").click();
    await expect.poll(() => page.getByTestId("pane-title").first().innerText()).toBe("New session");
    expect(wb.model.requests.length).toBe(sent);
  });

  it("a SKILL.md created on disk appears in the Skills pane within 2 s, without a reload", async () => {
    wb = await startWorkbench();
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("nav-skills").click();
    await page.getByTestId("skill-item").first().waitFor();
    await new Promise((r) => setTimeout(r, 800)); // the event stream is open and has looked once
    const fs = await import("node:fs/promises");
    await fs.mkdir(join(wb.dataRoot, "skills/fresh_skill"));
    await fs.writeFile(join(wb.dataRoot, "skills/fresh_skill/SKILL.md"), "---\nname: fresh_skill\ndescription: Appeared on disk.\n---\nSteps.\n");
    await page.getByText("fresh_skill", { exact: true }).waitFor({ timeout: 2000 });
  });

  it("the Inspector takes a file changed on disk when it has no edits, and offers it (never overwrites) when it has", async () => {
    wb = await startWorkbench();
    view = await openPage(browser, wb.url);
    const { page } = view;
    const fs = await import("node:fs/promises");
    const memory = join(wb.dataRoot, "memory/MEMORY.md");
    await page.locator(".monaco-editor .view-lines").waitFor();
    await new Promise((r) => setTimeout(r, 800));
    await fs.writeFile(memory, "# Memory\nwritten by another editor\n");
    await expect.poll(() => editorText(page), { timeout: 4000 }).toContain("written by another editor");

    await focusEditor(page);
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText("\nmy unsaved line");
    await page.getByTestId("dirty-marker").waitFor();
    await fs.writeFile(memory, "# Memory\nwritten again on disk\n");
    await page.getByTestId("disk-conflict").waitFor({ timeout: 4000 });
    expect(await editorText(page)).toContain("my unsaved line");
    await page.getByTestId("take-disk").click();
    await expect.poll(() => editorText(page)).toContain("written again on disk");
    expect(await page.getByTestId("dirty-marker").count()).toBe(0);
  });

  it("the pm-analysis skill, driven by a scripted model, yields a mind map the Stage draws and folds", async () => {
    wb = await startWorkbench({ script: pmAnalysisModel });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("/pm-analysis A recipe-sharing app for home cooks who want to plan weekly meals");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();

    // The skill was loaded with the requirements, and its reference read on demand.
    expect(messageText(lastMessage(wb.model.requests[0].body).content)).toContain("the requirements are: A recipe-sharing app");
    const template = page.locator('[data-testid="tool-card"][data-tool="read_file"][data-status="ok"]');
    await expect.poll(() => template.innerText()).toContain("references/prd-template.md");
    expect(messageText(lastMessage(wb.model.requests[1].body).content)).toContain("## 5. Features and priorities");

    const map = page.getByTestId("mindmap");
    await map.waitFor();
    await expect.poll(() => map.locator('[data-testid="mindmap-node"][data-depth="1"]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-title")))).toEqual([
      "Users",
      "Problems",
      "Features",
      "Open questions",
    ]);
    expect(await map.locator('[data-title="P0: Recipe import from a URL"]').count()).toBe(1);
    // The PRD outline below the map is ordinary Markdown.
    await expect.poll(() => page.getByTestId("answer").innerText()).toContain("PRD outline");
    await view.shot("pm-analysis-mindmap");

    // Branches fold and unfold.
    const features = map.locator('[data-title="Features"]').first();
    await features.locator("button").first().click();
    expect(await map.locator('[data-title="P0: Recipe import from a URL"]').count()).toBe(0);
    expect(await features.getByTestId("mindmap-folded").innerText()).toBe("+3");
    await map.getByTestId("mindmap-expand-all").click();
    expect(await map.locator('[data-title="P0: Recipe import from a URL"]').count()).toBe(1);
    await map.getByTestId("mindmap-collapse-all").click();
    expect(await map.locator('[data-testid="mindmap-node"][data-depth="2"]').count()).toBe(0);

    // A reload replays the same map.
    await page.goto(wb.url);
    await page.getByTestId("session-item").first().click();
    await page.getByTestId("mindmap").waitFor();
    expect(await page.locator('[data-testid="mindmap-node"]').count()).toBe(await countNodes(PM_MAP));
  });

  it("an invalid mind map is shown with the reason instead of drawn", async () => {
    wb = await startWorkbench({ script: () => ({ content: 'Here:\n\n```mindmap\n{"title": "A", "children": [{"name": "no title"}]}\n```' }) });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("map it");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("mindmap-invalid").innerText()).toContain("map.children[0].title must be a non-empty string");
    expect(await page.getByTestId("mindmap").count()).toBe(0);
  });

  it("Compact summarizes the session: the Stage marks the summarized turns, shows the summary, and a toast says so", async () => {
    wb = await startWorkbench({
      script: (body) =>
        systemPromptOf(body).startsWith("You compact a conversation") ? { content: "**Summary:** the user loaded the weather skill for Paris." } : { content: "ok" },
    });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("/get_weather Paris");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    await page.getByTestId("composer").fill("and tomorrow?");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator('[data-testid="turn"][data-status="done"]').count()).toBe(2);

    // Asked first: Cancel changes nothing, Compact runs it.
    const requests = wb.model.requests.length;
    await page.getByTestId("compact-session").click();
    await page.getByTestId("compact-cancel").click();
    expect(wb.model.requests.length).toBe(requests);
    expect(await page.getByTestId("compaction").count()).toBe(0);
    await page.getByTestId("compact-session").click();
    await page.getByTestId("compact-confirm").click();
    await page.getByTestId("compaction").waitFor();
    await expect.poll(() => page.locator('[data-testid="turn"][data-compacted="true"]').count()).toBe(2);
    await expect.poll(() => page.getByTestId("compaction").innerText()).toContain("summary of the first 2 turns, plus the skills loaded in them (get_weather)");
    await page.getByTestId("compaction").getByRole("button").first().click();
    await expect.poll(() => page.getByTestId("compaction-summary").innerText()).toContain("the user loaded the weather skill for Paris");
    await expect.poll(() => page.getByTestId("toast").innerText()).toContain("Compacted 2 turns into a summary; kept get_weather.");
    await view.shot("compaction");

    // The next turn's request carries the summary and the skill, not the summarized turns.
    await page.getByTestId("composer").fill("and the day after?");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator('[data-testid="turn"][data-status="done"]').count()).toBe(3);
    const sent = wb.model.requests[wb.model.requests.length - 1].body.messages.map((m) => messageText(m.content));
    expect(sent.join("\n")).toContain("the user loaded the weather skill for Paris");
    expect(sent.join("\n")).toContain("the place asked for is: Paris");
    expect(sent).not.toContain("and tomorrow?");
  });

  it("a SKILL.md with broken frontmatter written on disk raises a warning toast", async () => {
    wb = await startWorkbench();
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("stage").waitFor();
    await new Promise((r) => setTimeout(r, 800)); // the event stream is open and has looked once
    const fs = await import("node:fs/promises");
    await fs.mkdir(join(wb.dataRoot, "skills/half_written"));
    await fs.writeFile(join(wb.dataRoot, "skills/half_written/SKILL.md"), "---\nname: half_written\n");
    const toast = page.locator('[data-testid="toast"][data-level="warning"]');
    await expect.poll(() => toast.innerText(), { timeout: 4000 }).toContain('Skill "half_written" is skipped');
  });
  it("delegates two tasks at once: the Agents view shows them running, the Stage nests each trace under its call, and a reload keeps them", async () => {
    wb = await startWorkbench({ script: delegatingModel });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("nav-agents").click();
    // Waits, not timings: under a loaded CI machine the first load of a view can take a few seconds.
    await expect.poll(() => page.getByTestId("role-item").allInnerTexts(), { timeout: 10_000 }).toEqual([expect.stringContaining("analyst"), expect.stringContaining("researcher")]);

    await page.getByTestId("composer").fill("Find the note and do the sum");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("running-delegation").count(), { timeout: 5000 }).toBe(2);
    await expect.poll(() => page.locator('[data-testid="sub-agent"][data-status="streaming"]').count(), { timeout: 5000 }).toBe(2);
    await view.shot("delegation-running");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor({ timeout: 15000 });
    await expect.poll(() => page.getByTestId("no-delegations").count()).toBe(1);

    const checkTraces = async () => {
      const researcher = page.locator('[data-testid="sub-agent"][data-agent="researcher"]');
      const analyst = page.locator('[data-testid="sub-agent"][data-agent="analyst"]');
      await expect.poll(() => researcher.locator('[data-testid="tool-card"][data-tool="read_file"]').count()).toBe(1);
      await expect.poll(() => researcher.getByTestId("answer").innerText()).toContain("The note says: buy flour.");
      await expect.poll(() => analyst.getByTestId("answer").innerText()).toContain("6 × 7 = 42");
      expect(await researcher.getAttribute("data-depth")).toBe("1");
      await expect.poll(() => page.getByTestId("answer").last().innerText()).toContain("Done: buy flour, and 42.");
    };
    await checkTraces();
    await view.shot("delegation");

    await page.goto(wb.url);
    await page.getByTestId("session-item").first().click();
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    await checkTraces();
  });

  it("with the reviewer switched on, a review appears under the finished turn and its advice in the Agents view", async () => {
    wb = await startWorkbench({
      script: (body) => {
        if (!systemPromptOf(body).startsWith("# Reviewer")) return { content: "It is 13 °C." };
        if (!body.messages.some((m) => m.role === "tool")) {
          const task = messageText(body.messages[1].content);
          const [, offset, limit] = /offset (\d+), limit (\d+)/.exec(task) ?? [];
          return { toolCalls: [{ name: "read_file", args: { path: /session file (\S+):/.exec(task)?.[1], offset: Number(offset), limit: Number(limit) } }] };
        }
        return { content: '{"advice": "Name the source of the temperature.", "record": "The answer gave a number without a source."}' };
      },
    });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("nav-agents").click();
    await page.getByTestId("reviewer-toggle").click();
    await expect.poll(() => page.getByTestId("reviewer-toggle").isChecked()).toBe(true);
    await page.getByTestId("composer").fill("how warm is it?");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    await page.getByTestId("review").waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId("review-record").innerText()).toBe("The answer gave a number without a source.");
    expect(await page.getByTestId("review-advice").innerText()).toContain("Name the source of the temperature.");
    await expect.poll(() => page.getByTestId("reviewer-latest").innerText()).toContain("Name the source of the temperature.");
    await view.shot("review");
  });
});

/** What the scripted model answers for the pm-analysis skill: a map of a recipe app. */
const PM_MAP = {
  title: "Recipe planner",
  children: [
    { title: "Users", children: [{ title: "Home cooks: plan a week of meals" }, { title: "Busy parents: shop once a week" }] },
    { title: "Problems", children: [{ title: "Recipes are scattered across sites" }, { title: "Shopping lists are written by hand" }] },
    {
      title: "Features",
      children: [
        { title: "P0", children: [{ title: "P0: Recipe import from a URL" }, { title: "P0: Weekly meal calendar" }] },
        { title: "P1", children: [{ title: "P1: Shopping list from the week" }] },
        { title: "P2", children: [{ title: "P2: Share a week with family" }] },
      ],
    },
    { title: "Open questions", children: [{ title: "Which recipe sites allow import?" }] },
  ],
};

function countNodes(node: { children?: unknown[] }): number {
  return 1 + (node.children ?? []).reduce<number>((sum, child) => sum + countNodes(child as { children?: unknown[] }), 0);
}

function pmAnalysisModel(body: ChatRequestBody) {
  if (lastMessage(body).role !== "tool") {
    return { toolCalls: [{ name: "read_file", args: { path: "skills/pm-analysis/references/prd-template.md" } }] };
  }
  return {
    chunkChars: 40,
    content:
      "Here is the analysis of the recipe planner.\n\n```mindmap\n" +
      JSON.stringify(PM_MAP, null, 1) +
      "\n```\n\n## PRD outline\n1. **Summary**: a weekly meal planner for home cooks.\n2. **Users**: home cooks, busy parents.",
  };
}

/** A main agent that splits a task between the researcher and the analyst; each sub-agent takes its time. */
function delegatingModel(body: ChatRequestBody) {
  const role = /^You are the "([^"]+)" sub-agent/.exec(systemPromptOf(body))?.[1];
  const results = body.messages.filter((m) => m.role === "tool").map((m) => messageText(m.content));
  if (role === "researcher") {
    if (results.length === 0) return { firstByteDelayMs: 1200, toolCalls: [{ name: "read_file", args: { path: "memory/MEMORY.md" } }] };
    return { chunkDelayMs: 60, content: "The note says: buy flour." };
  }
  if (role === "analyst") return { firstByteDelayMs: 1200, chunkDelayMs: 60, content: "6 × 7 = 42, checked." };
  if (results.length === 0) {
    return {
      toolCalls: [
        { name: "delegate", args: { agent: "researcher", task: "What does the note say?" } },
        { name: "delegate", args: { agent: "analyst", task: "What is 6 × 7?" } },
      ],
    };
  }
  return { content: "Done: buy flour, and 42." };
}
