/**
 * The `browser` tool through the real workbench and a real Chromium: the scripted model drives a
 * form on a local site (its result rendered by JavaScript), the cards and the session file carry
 * each step with its screenshot, approvals ask before a first visit to a host. The guard is tested
 * with the test allowance off for every address kind and scheme. Hostile pages: adversary/browser-pages.test.ts.
 */
import { lookup } from "node:dns";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ApprovalRequestEvent, ChatEvent, ToolResultEvent, WebStatusReply } from "@mini-openclaw/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findBrowser } from "../src/browser/find-browser.js";
import type { ChatRequestBody } from "../test-support/scripted-model-server.js";
import { html, refOf, type Site, startSite } from "../test-support/browser-site.js";
import { toolMessages } from "../test-support/mcp-harness.js";
import { SECRET_KEY, startToolHarness, type ToolHarness } from "../test-support/tool-harness.js";
import { fetchSession, jsonOf, postJson, sseEvents, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

const chromium = findBrowser(process.env.BROWSER_PATH ?? null);
if (!chromium) console.warn("\n!!! browser tests SKIPPED: no Chromium installed (apt-get install chromium) !!!\n");

const FORM = `<!doctype html><title>Weather form</title><h1>Ask the weather</h1>
<form action="/result.html"><label>City <input name="city"></label>
<label>Units <select name="units"><option value="c">Celsius</option><option value="f">Fahrenheit</option></select></label>
<button type="submit">Look up</button></form>`;
// Rendered by the page's script from the query: nothing of it is in the HTML the server sent.
const RESULT = `<!doctype html><title>Weather result</title><main id="out">loading…</main>
<script>const q = new URLSearchParams(location.search);
setTimeout(() => { document.getElementById("out").innerHTML = "<h2>Weather in " + q.get("city") + "</h2><p>Sunny, 21 degrees " + (q.get("units") === "f" ? "F" : "C") + "</p>"; }, 50);</script>`;

describe.skipIf(!chromium)("a browser turn through the workbench", () => {
  let site: Site;
  let wb: Workbench | undefined;
  beforeAll(async () => {
    site = await startSite({ "/form.html": (_q, res) => html(res, FORM), "/result.html": (_q, res) => html(res, RESULT), "/other.html": (_q, res) => html(res, "<title>Other</title><p>Another page</p>") });
  });
  afterEach(async () => {
    await wb?.close();
    wb = undefined;
  });
  afterAll(async () => site?.close());

  it("navigates, reads the outline, fills the form, submits, reads the script-rendered result, takes a screenshot; the cards and the session carry each step", async () => {
    // The model reads each outline it is sent and picks the references from it, as a model does.
    const script = (body: ChatRequestBody) => {
      const done = toolMessages(body);
      const last = done.at(-1) ?? "";
      switch (done.length) {
        case 0:
          return { toolCalls: [{ name: "browser", args: { action: "navigate", url: `${site.url}/form.html` } }] };
        case 1:
          return { toolCalls: [{ name: "browser", args: { action: "select", ref: refOf(last, /combobox "Units"/), values: ["f"] } }] };
        case 2:
          return { toolCalls: [{ name: "browser", args: { action: "type", ref: refOf(last, /textbox "City"/), text: "Paris" } }] };
        case 3:
          return { toolCalls: [{ name: "browser", args: { action: "click", ref: refOf(last, /button "Look up"/) } }] };
        case 4:
          return { toolCalls: [{ name: "browser", args: { action: "wait_for", text: "Sunny" } }] };
        case 5:
          return { toolCalls: [{ name: "browser", args: { action: "screenshot" } }] };
        default:
          return { content: `It says: ${/Sunny, 21 degrees F/.test(done[4]) ? "sunny, 21 °F" : "nothing"}` };
      }
    };
    wb = await startWorkbench({ env: { FETCH_ALLOWLIST: `127.0.0.1:${site.port}` }, script });
    const tools = () => wb!.model.requests[0].body.tools?.map((t) => (t as { function: { name: string } }).function.name) ?? [];
    const events: ChatEvent[] = [];
    for await (const event of sseEvents(await postJson(`${wb.url}/api/chat`, { message: "What is the weather in Paris, in Fahrenheit?", stream: true }))) events.push(event);
    expect(tools()).toContain("browser");
    const results = events.filter((e): e is ToolResultEvent => e.type === "tool_result");
    expect(results.map((r) => (r.details as { action: string }).action)).toEqual(["navigate", "select", "type", "click", "wait_for", "screenshot"]);
    expect(results.every((r) => r.ok)).toBe(true);
    const sent = toolMessages(wb.model.requests.at(-1)!.body);
    expect(sent[0]).toMatch(/Page: Weather form\nURL: http:\/\/127\.0\.0\.1:\d+\/form\.html/);
    expect(sent[0]).toMatch(/textbox "City" \[ref=e\d+\]/);
    expect(sent[3]).toMatch(/URL: .*\/result\.html\?city=Paris&units=f/);
    expect(sent[4]).toContain("Sunny, 21 degrees F");
    expect(events.at(-1)).toMatchObject({ type: "final", content: "It says: sunny, 21 °F" });

    // Each step's screenshot is stored once and served by id as a JPEG of at most 1,280 px.
    for (const result of results) {
      const shot = (result.details as { screenshot: { id: string; width: number } }).screenshot;
      expect(shot.width).toBeLessThanOrEqual(1280);
      const image = await fetch(`${wb.url}/api/web/screenshots/${shot.id}`);
      expect(image.headers.get("content-type")).toBe("image/jpeg");
      const bytes = Buffer.from(await image.arrayBuffer());
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    }
    expect((await fetch(`${wb.url}/api/web/screenshots/${"0".repeat(32)}`)).status).toBe(404);
    expect((await fetch(`${wb.url}/api/web/screenshots/..%2F..%2FKEY.md`)).status).toBe(404);

    // A reload replays the steps from the session file: the same cards, with their screenshots.
    const sessionId = (events[0] as { session_id: string }).session_id;
    const stored = storedEvents((await fetchSession(wb.url, sessionId)).entries).filter((e): e is ToolResultEvent => e.type === "tool_result");
    expect(stored.map((r) => r.details)).toEqual(results.map((r) => r.details));

    // The browser runs for the session, and the page it shows can be saved to knowledge.
    const status = await jsonOf<WebStatusReply>(fetch(`${wb.url}/api/web/status`));
    expect(status.browser).toMatchObject({ available: true, sessions: [{ session_id: sessionId, tabs: 1 }] });
    const resultUrl = (results[3].details as { url: string }).url;
    expect((await postJson(`${wb.url}/api/web/save`, { session_id: sessionId, url: resultUrl }, { headers: { origin: "https://evil.example" } })).status).toBe(403);
    const saved = await jsonOf<{ path: string }>(postJson(`${wb.url}/api/web/save`, { session_id: sessionId, url: resultUrl }, { headers: { origin: wb.url } }));
    expect(saved.path).toMatch(/^knowledge\/web\/127-0-0-1-result-html-city-paris-units-f\.md$/);
    const text = await readFile(join(wb.dataRoot, saved.path), "utf8");
    expect(text).toContain(`Source: <${resultUrl}>`);
    expect(text).toContain("Sunny, 21 degrees F");
    expect((await postJson(`${wb.url}/api/web/save`, { session_id: "no-such-session", url: resultUrl }, { headers: { origin: wb.url } })).status).toBe(409);

    // An export carries the screenshots; an import stores them again, each checked against its id.
    const exported = await jsonOf<{ screenshots: Array<{ id: string; data: string }> }>(fetch(`${wb.url}/api/sessions/${sessionId}/export?format=json`));
    expect(exported.screenshots.map((s) => s.id).sort()).toEqual([...new Set(results.map((r) => (r.details as { screenshot: { id: string } }).screenshot.id))].sort());
    await rm(join(wb.dataRoot, "storage/browser/screenshots"), { recursive: true });
    const tampered = { ...exported, screenshots: [{ ...exported.screenshots[0], data: Buffer.from("not a jpeg").toString("base64") }] };
    expect((await postJson(`${wb.url}/api/sessions/import`, tampered, { headers: { origin: wb.url } })).status).toBe(400);
    expect((await postJson(`${wb.url}/api/sessions/import`, exported, { headers: { origin: wb.url } })).status).toBe(201);
    expect((await fetch(`${wb.url}/api/web/screenshots/${exported.screenshots[0].id}`)).status).toBe(200);

    // Deleting the session closes its browser.
    expect((await fetch(`${wb.url}/api/sessions/${sessionId}`, { method: "DELETE", headers: { origin: wb.url } })).status).toBe(200);
    expect((await jsonOf<WebStatusReply>(fetch(`${wb.url}/api/web/status`))).browser.sessions).toEqual([]);
  }, 60_000);

  it("Stop closes the session's browser with the turn", async () => {
    wb = await startWorkbench({
      env: { FETCH_ALLOWLIST: `127.0.0.1:${site.port}` },
      script: (body) => {
        const done = toolMessages(body);
        if (done.length === 0) return { toolCalls: [{ name: "browser", args: { action: "navigate", url: `${site.url}/form.html` } }] };
        if (done.length === 1) return { toolCalls: [{ name: "browser", args: { action: "wait_for", seconds: 30 } }] };
        return { content: "done" };
      },
    });
    let sessionId = "";
    for await (const event of sseEvents(await postJson(`${wb.url}/api/chat`, { message: "wait", stream: true }))) {
      if (event.type === "session") sessionId = event.session_id;
      if (event.type === "tool_call" && (event.input as { action?: string }).action === "wait_for") {
        expect((await jsonOf<WebStatusReply>(fetch(`${wb.url}/api/web/status`))).browser.sessions).toHaveLength(1);
        expect((await postJson(`${wb.url}/api/sessions/${sessionId}/stop`, {}, { headers: { origin: wb.url } })).status).toBe(200);
      }
    }
    await expect.poll(async () => (await jsonOf<WebStatusReply>(fetch(`${wb!.url}/api/web/status`))).browser.sessions, { timeout: 5000 }).toEqual([]);
  }, 60_000);

  it("approvals ask before the first visit to a host in a session, not again, and never for a click", async () => {
    const calls = [
      { action: "navigate", url: `${site.url}/form.html` },
      { action: "navigate", url: `${site.url}/other.html` },
      { action: "scroll" },
    ];
    wb = await startWorkbench({
      env: { FETCH_ALLOWLIST: `127.0.0.1:${site.port}`, APPROVALS: "on" },
      script: (body) => {
        const done = toolMessages(body);
        return done.length < calls.length ? { toolCalls: [{ name: "browser", args: calls[done.length] }] } : { content: "done" };
      },
    });
    const response = await postJson(`${wb.url}/api/chat`, { message: "browse", stream: true });
    const events: ChatEvent[] = [];
    for await (const event of sseEvents(response)) {
      events.push(event);
      if (event.type === "approval_request") {
        expect(event).toMatchObject({ tool: "browser", subject: `${site.url}/form.html`, proposal: "127.0.0.1" });
        await postJson(`${wb.url}/api/approvals/${event.id}`, { decision: "approve" }, { headers: { origin: wb.url } });
      }
    }
    expect(events.filter((e): e is ApprovalRequestEvent => e.type === "approval_request")).toHaveLength(1);
    expect(events.filter((e) => e.type === "approval")).toEqual([
      expect.objectContaining({ decision: "approved", by: "user" }),
      expect.objectContaining({ decision: "approved", by: "rule", rule: "127.0.0.1: visited this session" }),
    ]);
    expect(toolMessages(wb.model.requests.at(-1)!.body)[1]).toContain("Page: Other");
  }, 60_000);
});

describe.skipIf(!chromium)("the browser's guard (the test allowance off for the target)", () => {
  let site: Site; // allowlisted: the test's own pages
  let inner: Site; // a loopback service that is NOT allowlisted: nothing may reach it
  let h: ToolHarness;
  const lookups: string[] = [];
  const go = (url: string) => h.run("browser", { action: "navigate", url });
  beforeAll(async () => {
    inner = await startSite({ "/": (_q, res) => html(res, "<title>Inner</title><p>INNER-SERVICE-SECRET</p>"), "/ws": (_q, res) => res.writeHead(426).end() });
    const p = inner.port;
    site = await startSite({
      "/to-inner": (_q, res) => res.writeHead(302, { location: `${inner.url}/` }).end(),
      "/to-metadata": (_q, res) => res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
      "/frame.html": (_q, res) => html(res, `<title>Frame</title><iframe src="http://127.0.0.1:${p}/"></iframe>`),
      "/fetch.html": (_q, res, port) =>
        html(res, `<title>Fetch</title><p id="o">waiting</p><script>
          fetch("http://127.0.0.1:${p}/").then(r => r.text()).then(t => o.textContent = "GOT " + t, e => o.textContent = "fetch failed");
          fetch("http://rebind.example:${port}/fetch.html").then(() => 0, () => 0);
          const ws = new WebSocket("ws://127.0.0.1:${p}/ws"); ws.onerror = () => document.title = "Fetch ws refused";</script>`),
      "/files.html": (_q, res) =>
        html(res, `<title>Files</title><a href="file://${h.keyFile}">the key</a><iframe src="file://${h.dataRoot}/memory/MEMORY.md"></iframe><p id="o">waiting</p>
          <script>fetch("file://${h.keyFile}").then(r => r.text()).then(t => o.textContent = t, () => o.textContent = "file fetch failed");</script>`),
    });
    h = await startToolHarness({
      env: { FETCH_ALLOWLIST: `127.0.0.1:${site.port}` },
      // A name whose every answer is loopback, looked up at each connection (a rebinding attacker's DNS).
      lookup: (hostname, callback) => {
        lookups.push(hostname);
        if (hostname === "rebind.example") return callback(null, [{ address: "127.0.0.1", family: 4 }]);
        return lookup(hostname, { all: true }, callback);
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
    await inner?.close();
  });

  const cases: Array<[string, () => string, RegExp]> = [
    ["loopback", () => `${inner.url}/`, /127\.0\.0\.1 is a loopback address/],
    ["localhost", () => `http://localhost:${inner.port}/`, /localhost resolves to (127\.0\.0\.1|::1), a loopback address/],
    ["IPv6 ::1", () => `http://[::1]:${inner.port}/`, /::1 is a loopback address/],
    ["IPv4 mapped into IPv6", () => `http://[::ffff:127.0.0.1]:${inner.port}/`, /::ffff:7f00:1 is a loopback address/],
    ["private", () => "http://10.0.0.1/", /10\.0\.0\.1 is a private address/],
    ["private (192.168)", () => "http://192.168.1.1/", /192\.168\.1\.1 is a private address/],
    ["link-local (cloud metadata)", () => "http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a linkLocal address/],
    ["a name that rebinds to loopback", () => `http://rebind.example:${inner.port}/`, /rebind\.example resolves to 127\.0\.0\.1, a loopback address/],
    ["a redirect to loopback", () => `${site.url}/to-inner`, /127\.0\.0\.1 is a loopback address/],
    ["a redirect to the metadata address", () => `${site.url}/to-metadata`, /169\.254\.169\.254 is a linkLocal address/],
  ];
  it.each(cases)("refuses %s, and says why", async (_kind, url, says) => {
    const result = await go(url());
    expect(result.output).toMatch(says);
    expect(result.output).not.toContain("INNER-SERVICE-SECRET");
    expect(inner.hits).toEqual([]);
  }, 30_000);

  it("refuses what a page asks for: an iframe, a fetch(), a WebSocket, a name that now resolves to loopback", async () => {
    const framed = await go(`${site.url}/frame.html`);
    expect(framed.output).toMatch(/127\.0\.0\.1 is a loopback address/);
    const before = lookups.filter((n) => n === "rebind.example").length;
    const fetched = await go(`${site.url}/fetch.html`);
    await h.run("browser", { action: "wait_for", seconds: 1 });
    const after = await h.run("browser", { action: "snapshot" });
    expect(after.output).toContain("fetch failed");
    expect(`${fetched.output}\n${after.output}`).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(`${fetched.output}\n${after.output}`).toMatch(/rebind\.example resolves to 127\.0\.0\.1/);
    // The name is looked up again at this connection, not taken from an earlier answer.
    expect(lookups.filter((n) => n === "rebind.example").length).toBeGreaterThan(before);
    expect(inner.hits).toEqual([]);
  }, 30_000);

  it.each([["file:///etc/passwd"], ["chrome://version"], ["view-source:http://example.org/"], ["javascript:alert(1)"], ["data:text/html,<p>hi</p>"], ["ftp://example.org/"], ["http://user:pw@example.org/"]])(
    "refuses to open %s",
    async (url) => {
      const result = await go(url);
      expect(result.ok).toBe(false);
      expect(result.output).toMatch(/only http and https pages can be opened|URLs with credentials are refused/);
      expect(result.output).not.toContain("root:x:0");
    },
  );

  it("reads no file of the data root or beside it: not by link, iframe or fetch()", { timeout: 90_000 }, async () => {
    await writeFile(join(h.dataRoot, "memory/MEMORY.md"), "MEMORY-MARKER-2b7e\n");
    const page = await go(`${site.url}/files.html`);
    const link = /link "the key" \[ref=([a-z0-9]+)\]/.exec(page.output)?.[1];
    expect(link).toBeDefined();
    const clicked = await h.run("browser", { action: "click", ref: link });
    const seen = `${page.output}\n${clicked.output}\n${(await h.run("browser", { action: "snapshot" })).output}`;
    expect(seen).toContain("file fetch failed");
    expect(seen).not.toContain(SECRET_KEY);
    expect(seen).not.toContain("MEMORY-MARKER-2b7e");
    expect(seen).not.toMatch(/URL: file:/);
  });
});

