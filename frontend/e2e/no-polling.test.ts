/**
 * Server state without timers (issue 37): in a real Chromium, no view asks the API anything while
 * nothing changes, and each view shows a change made on disk or in another tab within a second,
 * because `/api/events` says what changed.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { postJson, startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const IDLE_MS = 10_000;
const UPDATE_MS = 1_000;

describe.skipIf(!chromiumAvailable)("no view polls", () => {
  const session = browserSession("no-polling");

  it("each view asks nothing over 10 idle seconds, and shows a change from disk or another tab within 1 s", async () => {
    const wb = session.use(await startWorkbench({ script: [{ content: "A first answer." }] }));
    // A session to rename from "another tab".
    const first = (await (await postJson(`${wb.url}/api/chat`, { message: "hello", stream: false })).json()) as { session_id: string };
    const { page } = await session.open(wb.url);
    const asked: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      // The event stream is one long request opened at load; everything else is a question asked.
      if (pathname.startsWith("/api/") && pathname !== "/api/events") asked.push(`${request.method()} ${pathname}`);
    });

    /** Shows the view, lets its first reads finish, then counts what it asks while nothing changes. */
    const idle = async (view: string) => {
      await page.getByTestId(`nav-${view}`).click();
      await page.waitForLoadState("networkidle");
      asked.length = 0;
      await page.waitForTimeout(IDLE_MS);
      expect(asked, `the ${view} view asked while nothing changed`).toEqual([]);
    };
    /** The change happens now; the locator must show it within a second. */
    const shownWithin = async (change: () => Promise<unknown>, shown: () => Promise<boolean>) => {
      const at = Date.now();
      await change();
      await expect.poll(shown, { timeout: UPDATE_MS, interval: 50 }).toBe(true);
      return Date.now() - at;
    };

    await idle("chat");
    await shownWithin(
      () => fetch(`${wb.url}/api/sessions/${first.session_id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "Renamed elsewhere" }) }),
      async () => (await page.getByTestId("session-title").allInnerTexts()).includes("Renamed elsewhere"),
    );

    await idle("memory");
    await shownWithin(
      async () => {
        await mkdir(join(wb.dataRoot, "memory/logs"), { recursive: true });
        await writeFile(join(wb.dataRoot, "memory/logs/2026-11-20.md"), "# 2026-11-20\n- a note written on disk\n");
      },
      async () => (await page.getByTestId("sidebar-file").allInnerTexts()).some((t) => t.includes("2026-11-20")),
    );

    await idle("skills");
    await shownWithin(
      async () => {
        await mkdir(join(wb.dataRoot, "skills/tide-tables"), { recursive: true });
        await writeFile(join(wb.dataRoot, "skills/tide-tables/SKILL.md"), "---\nname: tide-tables\ndescription: Reads tide tables.\n---\nRead them.\n");
      },
      async () => (await page.getByTestId("skill-item").allInnerTexts()).some((t) => t.includes("tide-tables")),
    );

    await idle("knowledge");
    await shownWithin(
      () => writeFile(join(wb.dataRoot, "knowledge/harbour.md"), "# Harbour\nThe harbour opens at dawn.\n"),
      async () => (await page.getByTestId("knowledge-document").evaluateAll((els) => els.map((e) => e.getAttribute("data-path")))).some((p) => p?.endsWith("harbour.md")),
    );

    await idle("agents");
    await shownWithin(
      () => writeFile(join(wb.dataRoot, "agents/pilot.md"), "---\nname: pilot\ndescription: Steers ships in.\ntools: read_file\n---\nSteer.\n"),
      async () => (await page.getByTestId("role-item").allInnerTexts()).some((t) => t.includes("pilot")),
    );

    await idle("approvals");
    await shownWithin(
      () =>
        writeFile(
          join(wb.dataRoot, "APPROVALS.json"),
          JSON.stringify({
            version: 1,
            timeout_seconds: 600,
            tools: {
              terminal: { mode: "ask-unlisted", allow: ["tidecheck"], deny: [] },
              python_repl: { mode: "ask-unlisted", allow: [], deny: [] },
              fetch_url: { mode: "off" },
              delegate: { mode: "off" },
            },
          }),
        ),
      async () => (await page.getByTestId("approval-allow").allInnerTexts()).some((t) => t.includes("tidecheck")),
    );

    await idle("mcp");
    await shownWithin(
      () => writeFile(join(wb.dataRoot, "MCP.json"), JSON.stringify({ mcpServers: { harbour: { command: "/nonexistent/harbour-mcp" } } })),
      async () => (await page.locator('[data-testid="mcp-server"][data-server="harbour"]').count()) === 1,
    );
  }, 180_000);
});
