/**
 * The API contract (protocol's api/) against the running server: the OpenAPI document validates as
 * OpenAPI 3.1, every operation has its replies' schemas, and every route's real replies, success
 * and error, validate against the schema the document gives for their status.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { strToU8, zipSync } from "fflate";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findBrowser } from "../src/browser/find-browser.js";
import { rootWith, scriptedMcpServer, waitForMcp } from "../test-support/mcp-harness.js";
import { messageText, systemPromptOf } from "../test-support/scripted-model-server.js";
import { sseEvents, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

type Schema = Record<string, unknown>;
interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Schema> };
}

let wb: Workbench;
let dataRoot: string;
let doc: OpenApi;
/** A SearXNG for the web routes: its JSON format, one result. */
const searxng = createServer((req, res) => {
  // The same local server is the page the browser opens.
  if (req.url === "/page.html") return void res.writeHead(200, { "content-type": "text/html" }).end("<title>Contract page</title><p>A page.</p>");
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ query: "q", results: [{ url: "https://example.org/", title: "Example", content: "An example." }] }));
});
const ajv = new Ajv2020({ strict: false, allErrors: true });
/** Operations seen, as `METHOD /path/{template} status`. */
const seen = new Set<string>();
/** Without a Chromium the browser's routes answer no success here (the browser tests say they were skipped). */
const chromium = findBrowser(null);
const failures: string[] = [];

/** The document's path template a concrete path matches. */
function templateOf(method: string, path: string): string | null {
  for (const template of Object.keys(doc.paths)) {
    if (!doc.paths[template][method.toLowerCase()]) continue;
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    if (pattern.test(path)) return template;
  }
  return null;
}

/** Fetches, and checks the reply against the document: its status is documented, its JSON body validates. */
async function call(method: string, path: string, init: { body?: unknown; raw?: Uint8Array; contentType?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: unknown; response: Response }> {
  const headers: Record<string, string> = { origin: wb.url, ...init.headers };
  let body: RequestInit["body"];
  if (init.raw) {
    body = init.raw;
    headers["content-type"] = init.contentType ?? "application/octet-stream";
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] = "application/json";
  }
  const response = await fetch(`${wb.url}${path}`, { method, headers, body });
  const bare = path.split("?")[0];
  const template = templateOf(method, bare);
  if (!template) {
    failures.push(`${method} ${bare}: not in the document`);
    return { status: response.status, body: await response.text(), response };
  }
  seen.add(`${method} ${template} ${response.status}`);
  const documented = doc.paths[template][method.toLowerCase()].responses[String(response.status)];
  if (!documented) failures.push(`${method} ${template}: status ${response.status} is not documented`);
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("application/json")) return { status: response.status, body: response.body, response };
  const json: unknown = await response.json();
  const schema = documented?.content?.["application/json"]?.schema;
  if (!schema) failures.push(`${method} ${template} ${response.status}: a JSON reply without a schema`);
  else {
    const validate = ajv.compile({ ...schema, components: doc.components });
    if (!validate(json)) failures.push(`${method} ${template} ${response.status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(json).slice(0, 300)}`);
  }
  return { status: response.status, body: json, response };
}


beforeAll(async () => {
  dataRoot = await rootWith({ mcpServers: { scripted: { command: process.execPath, args: [scriptedMcpServer, "ok"] } } });
  await mkdir(join(dataRoot, "skills", "shipping-hooks", "hooks"), { recursive: true });
  await writeFile(join(dataRoot, "skills", "shipping-hooks", "SKILL.md"), "---\nname: shipping-hooks\ndescription: A skill that ships a hook.\n---\nBody.\n");
  await writeFile(join(dataRoot, "skills", "shipping-hooks", "hooks", "hooks.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }));
  await new Promise<void>((r) => searxng.listen(0, "127.0.0.1", r));
  await writeFile(join(dataRoot, "WEB.json"), JSON.stringify({ search: { provider: "searxng", url: `http://127.0.0.1:${(searxng.address() as AddressInfo).port}` } }));
  await writeFile(join(dataRoot, "HOOKS.json"), JSON.stringify({ hooks: { PostToolUse: [{ matcher: "terminal", hooks: [{ type: "command", command: "cat > /dev/null" }] }] } }));
  wb = await startWorkbench({
    dataRoot,
    env: { APPROVALS: "on", FETCH_ALLOWLIST: `127.0.0.1:${(searxng.address() as AddressInfo).port}` },
    script: (body) => {
      const system = systemPromptOf(body);
      if (system.includes('"analyst" sub-agent')) return { content: "42" };
      if (messageText(body.messages.at(-1)?.content).includes("memory helper")) return { content: JSON.stringify({ skills: [{ name: "contract-made", description: "A skill Save as skill proposed.", body: "Do it." }] }) };
      if (!body.tools?.length) return { content: "A short summary of the conversation." };
      const last = body.messages.at(-1);
      const asked = last?.role === "user" ? messageText(last.content) : "";
      // A new message (the last one is the user's) that asks for a call gets it; a call's result gets an answer.
      if (asked.startsWith("delegate")) return { toolCalls: [{ name: "delegate", args: { agent: "analyst", task: "six times seven" } }] };
      if (asked.startsWith("browse")) return { toolCalls: [{ name: "browser", args: { action: "navigate", url: `http://127.0.0.1:${(searxng.address() as AddressInfo).port}/page.html` } }] };
      if (asked.startsWith("write")) return { toolCalls: [{ name: "terminal", args: { command: "echo changed > workspace/made.md" } }] };
      return { content: "done" };
    },
  });
  await writeFile(join(dataRoot, "APPROVALS.json"), JSON.stringify({ version: 1, timeout_seconds: 600, tools: { terminal: { mode: "off" }, python_repl: { mode: "off" }, fetch_url: { mode: "off" }, delegate: { mode: "ask", allow: [], deny: [] }, browser: { mode: "off" } } }));
  doc = (await (await fetch(`${wb.url}/api/openapi.json`)).json()) as OpenApi;
}, 60_000);

afterAll(async () => {
  await wb?.close();
  searxng.closeAllConnections();
  await new Promise((r) => searxng.close(r));
  await rm(dataRoot, { recursive: true, force: true });
});

describe("the API contract", () => {
  it("GET /api/openapi.json is a valid OpenAPI 3.1 document whose every operation has parameters and reply schemas", async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBe(81);
    for (const { path, method, op } of operations) {
      const statuses = Object.keys(op.responses);
      expect(statuses.some((s) => s.startsWith("2")), `${method} ${path}`).toBe(true);
      for (const status of statuses.filter((s) => s !== "204")) expect(op.responses[status].content, `${method} ${path} ${status}`).toBeDefined();
      for (const name of path.match(/\{([^}]+)\}/g) ?? []) expect(op.parameters?.some((p) => p.in === "path" && `{${p.name}}` === name), `${method} ${path} ${name}`).toBe(true);
    }
    // The parameters the routes read, and the uploads' bodies, are in the document.
    const query = (path: string, method: string) => (doc.paths[path][method].parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
    expect(query("/api/knowledge/search", "get")).toEqual(["q", "k"]);
    expect(query("/api/files", "get")).toEqual(["path"]);
    expect(query("/api/prompt", "get")).toEqual(["session_id"]);
    expect(Object.keys(doc.paths["/api/knowledge/documents"].post.requestBody!.content)).toEqual(["application/octet-stream"]);
    expect(doc.paths["/api/knowledge/documents"].post.responses["409"].content!["application/json"].schema).toEqual({ $ref: "#/components/schemas/ApiError" });
    expect(Object.keys(doc.paths["/api/chat"].post.responses["200"].content!)).toEqual(["text/event-stream", "application/json"]);
  });

  it("every route's real replies, success and error, validate against the schema the document gives for their status", async () => {
    await waitForMcp(wb, (reply) => reply.servers.some((s) => s.state === "connected"));
    // Reading views.
    for (const path of ["/api/health", "/api/model", "/api/mcp", "/api/agents", "/api/approvals", "/api/skills", "/api/files/list", "/api/prompt", "/api/knowledge/status", "/api/knowledge/documents", "/api/sessions"]) {
      expect((await call("GET", path)).status, path).toBe(200);
    }
    expect((await call("POST", "/api/reviewer", { body: { enabled: false } })).status).toBe(200);
    // A new data root: its first browser's language, once.
    expect((await call("GET", "/api/defaults-language")).status).toBe(200);
    expect((await call("POST", "/api/defaults-language", { body: { language: "xx" } })).status).toBe(400);
    expect((await call("POST", "/api/defaults-language", { body: { language: "en" } })).status).toBe(200);
    expect((await call("POST", "/api/defaults-language", { body: { language: "zh" } })).status).toBe(409);
    expect((await call("POST", "/api/mcp/scripted/restart")).status).toBe(202);
    expect((await call("POST", "/api/mcp/nobody/restart")).status).toBe(404);

    // Files.
    expect((await call("POST", "/api/files", { body: { path: "workspace/notes.md", content: "# Notes\n" } })).status).toBe(200);
    expect((await call("GET", "/api/files?path=workspace/notes.md")).status).toBe(200);
    expect((await call("GET", "/api/files?path=../etc/passwd")).status).toBe(403);
    expect((await call("GET", "/api/files?path=workspace/none.md")).status).toBe(404);
    expect((await call("POST", "/api/files", { body: { path: "workspace/x.md" } })).status).toBe(400);

    // Knowledge.
    const upload = await call("POST", "/api/knowledge/documents?filename=contract.md", { raw: strToU8("# Contract\n\nThe contract passage about otters.\n") });
    expect(upload.status).toBe(201);
    expect((await call("POST", "/api/knowledge/documents?filename=contract.md", { raw: strToU8("again") })).status).toBe(409);
    expect((await call("GET", "/api/knowledge/search?q=otters&k=3")).status).toBe(200);
    expect((await call("GET", "/api/knowledge/search?k=3")).status).toBe(400);
    expect((await call("GET", "/api/knowledge/source?path=knowledge/contract.md")).status).toBe(200);
    const removed = await call("DELETE", "/api/knowledge/documents?path=knowledge/contract.md");
    expect(removed.status).toBe(200);
    expect((await call("POST", "/api/knowledge/documents/restore", { body: { trash: (removed.body as { trash: string }).trash } })).status).toBe(200);
    expect((await call("POST", "/api/knowledge/rebuild")).status).toBe(202);

    // Skills.
    const archive = zipSync({ "contract-skill/SKILL.md": strToU8("---\nname: contract-skill\ndescription: A skill the contract test installs.\n---\nDo the thing.\n") });
    expect((await call("POST", "/api/skills/install?filename=contract.zip", { raw: archive, contentType: "application/zip" })).status).toBe(201);

    // Model settings: tried against the scripted server, then saved.
    const settings = { base_url: wb.model.baseUrl, model: "scripted", api_key: "test-key" };
    expect((await call("POST", "/api/model/test", { body: settings })).status).toBe(200);
    expect((await call("PUT", "/api/model", { body: settings })).status).toBe(200);
    expect((await call("PUT", "/api/model", { body: { model: "has spaces" } })).status).toBe(400);

    // Model profiles: one made, tried, made the default and back, deleted; and the usage by day.
    const profile = { base_url: wb.model.baseUrl, model: "scripted-b", api_key: "key-b", prices: { input: 1, output: 2 } };
    expect((await call("PUT", "/api/models/second", { body: profile })).status).toBe(200);
    expect((await call("PUT", "/api/models/Bad_Name", { body: profile })).status).toBe(400);
    expect((await call("POST", "/api/models/test", { body: { ...profile, name: "second" } })).status).toBe(200);
    expect((await call("PUT", "/api/models", { body: { default: "second" } })).status).toBe(200);
    expect((await call("PUT", "/api/models", { body: { default: "none-such" } })).status).toBe(400);
    expect((await call("PUT", "/api/models", { body: { default: "default" } })).status).toBe(200);
    expect((await call("GET", "/api/models")).status).toBe(200);
    expect((await call("DELETE", "/api/models/second")).status).toBe(200);
    expect((await call("DELETE", "/api/models/second")).status).toBe(404);
    expect((await call("DELETE", "/api/models/default")).status).toBe(400);
    expect((await call("GET", "/api/usage")).status).toBe(200);

    // Attachments: one stored and read back; a kind it does not take, an unknown id.
    const attached = await call("POST", "/api/attachments?filename=notes.txt", { raw: strToU8("Attached notes.\n") });
    expect(attached.status).toBe(201);
    expect((await call("POST", "/api/attachments?filename=a.zip", { raw: zipSync({ "a.txt": strToU8("x") }) })).status).toBe(415);
    expect((await call("GET", `/api/attachments/${(attached.body as { id: string }).id}`)).status).toBe(200);
    expect((await call("GET", "/api/attachments/att_000000000000000000000000")).status).toBe(404);
    expect((await call("GET", `/api/attachments/${(attached.body as { id: string }).id}/text`)).status).toBe(200);
    expect((await call("GET", "/api/attachments/att_000000000000000000000000/text")).status).toBe(404);
    expect((await call("GET", "/api/usage?from=2026-13-01")).status).toBe(400);

    expect((await call("GET", "/api/files/schema?path=MCP.json")).status).toBe(200);
    expect((await call("GET", "/api/files/schema?path=workspace/SOUL.md")).status).toBe(404);

    // Tasks: one made, read, previewed, changed, run, its runs, deleted; the heartbeat; bad schedules.
    const taskBody = { name: "Contract", prompt: "hello", schedule: { kind: "once", at: new Date(Date.now() + 3_600_000).toISOString() } };
    const task = await call("POST", "/api/tasks", { body: taskBody });
    expect(task.status).toBe(201);
    const taskId = (task.body as { id: string }).id;
    expect((await call("POST", "/api/tasks", { body: { ...taskBody, schedule: { kind: "cron", expr: "nope" } } })).status).toBe(400);
    expect((await call("GET", "/api/tasks")).status).toBe(200);
    expect((await call("GET", `/api/tasks/${taskId}`)).status).toBe(200);
    expect((await call("GET", "/api/tasks/task_000000")).status).toBe(404);
    expect((await call("POST", "/api/tasks/preview", { body: { schedule: { kind: "every", seconds: 60 } } })).status).toBe(200);
    expect((await call("POST", "/api/tasks/preview", { body: { schedule: { kind: "cron", expr: "* *" } } })).status).toBe(400);
    expect((await call("PUT", `/api/tasks/${taskId}`, { body: { ...taskBody, enabled: false } })).status).toBe(200);
    expect((await call("PUT", "/api/tasks/heartbeat", { body: { enabled: false, every_minutes: 30 } })).status).toBe(200);
    // The heartbeat's checklist changed outside the workbench: accepted from the page; a stale hash is a 409.
    await writeFile(join(wb.dataRoot, "workspace", "HEARTBEAT.md"), "- Contract check.\n");
    const { checklist_change: checklistChange } = ((await call("GET", "/api/tasks")).body as { heartbeat: { checklist_change: { sha256: string } } }).heartbeat;
    expect((await call("POST", "/api/tasks/heartbeat/checklist", { body: { decision: "accept", sha256: "0".repeat(64) } })).status).toBe(409);
    expect((await call("POST", "/api/tasks/heartbeat/checklist", { body: { decision: "accept", sha256: checklistChange.sha256 } })).status).toBe(200);
    expect((await call("POST", `/api/tasks/${taskId}/run`)).status).toBe(202);
    expect((await call("POST", "/api/tasks/task_000000/run")).status).toBe(404);
    expect((await call("GET", `/api/tasks/${taskId}/runs`)).status).toBe(200);
    expect((await call("GET", "/api/tasks/task_000000/runs")).status).toBe(404);
    await expect.poll(async () => ((await call("GET", `/api/tasks/${taskId}`)).body as { running: boolean }).running).toBe(false);
    expect((await call("DELETE", `/api/tasks/${taskId}`)).status).toBe(200);
    expect((await call("DELETE", `/api/tasks/${taskId}`)).status).toBe(404);

    // A turn that writes a file, not streamed; then its session's every view.
    const turn = await call("POST", "/api/chat", { body: { message: "write the file", stream: false } });
    expect(turn.status).toBe(200);
    const sessionId = (turn.body as { session_id: string }).session_id;
    expect((await call("GET", `/api/sessions/${sessionId}`)).status).toBe(200);
    expect((await call("GET", "/api/sessions/search?q=write")).status).toBe(200);
    expect((await call("GET", `/api/prompt?session_id=${sessionId}`)).status).toBe(200);
    const changes = await call("GET", `/api/sessions/${sessionId}/changes`);
    expect(changes.status).toBe(200);
    const change = (changes.body as { calls: Array<{ change: string }> }).calls[0]?.change;
    expect(change).toBeTruthy();
    expect((await call("GET", `/api/changes/${encodeURIComponent(change)}/diff?path=workspace/made.md`)).status).toBe(200);
    expect((await call("GET", `/api/changes/${encodeURIComponent(change)}/diff?path=workspace/other.md`)).status).toBe(404);
    expect((await call("POST", "/api/changes/revert", { body: { change, path: "workspace/made.md" } })).status).toBe(200);
    expect((await call("POST", `/api/sessions/${sessionId}/rewind`, { body: { turn: 1, files: true, conversation: true, on_conflict: "skip" } })).status).toBe(200);
    expect((await call("POST", `/api/sessions/${sessionId}/rewind`, { body: { turn: 1 } })).status).toBe(400);

    // Replay and compare: the turn run again (recorded tools), the two runs compared, a prompt diff; bad runs.
    const replayed = await call("POST", `/api/sessions/${sessionId}/turns/1/replay`, { body: { tools: "recorded" } });
    expect(replayed.status).toBe(202);
    expect((await call("POST", `/api/sessions/${sessionId}/turns/99/replay`, { body: {} })).status).toBe(404);
    expect((await call("POST", `/api/sessions/${sessionId}/turns/1/replay`, { body: { tools: "sometimes" } })).status).toBe(400);
    const replayId = (replayed.body as { session_id: string }).session_id;
    await expect.poll(async () => ((await call("GET", `/api/sessions/${replayId}`)).body as { running: boolean }).running).toBe(false);
    expect((await call("GET", `/api/compare?runs=${sessionId}:1,${replayId}:1`)).status).toBe(200);
    expect((await call("GET", `/api/compare?runs=${sessionId}:1`)).status).toBe(400);
    expect((await call("GET", `/api/compare?runs=${sessionId}:1,${sessionId}:42`)).status).toBe(404);
    expect((await call("GET", `/api/sessions/${sessionId}/prompt-diff?from=1&to=1`)).status).toBe(200);
    expect((await call("GET", `/api/sessions/${sessionId}/prompt-diff?from=1&to=x`)).status).toBe(400);
    expect((await call("GET", `/api/sessions/${sessionId}/prompt-diff?from=1&to=42`)).status).toBe(404);

    // Proposals: the consolidation's settings; Save as skill on the turn, the proposal read and accepted from the page.
    expect((await call("PUT", "/api/tasks/consolidation", { body: { enabled: false, at: "04:30" } })).status).toBe(200);
    expect((await call("PUT", "/api/tasks/consolidation", { body: { enabled: true, at: "25:00" } })).status).toBe(400);
    expect((await call("POST", `/api/sessions/${sessionId}/turns/1/save-as-skill`, { body: {} })).status).toBe(202);
    expect((await call("POST", `/api/sessions/${sessionId}/turns/99/save-as-skill`, { body: {} })).status).toBe(404);
    await expect.poll(async () => ((await call("GET", "/api/proposals")).body as { pending: number }).pending, { timeout: 10_000 }).toBe(1);
    expect((await call("GET", "/api/proposals?limit=1000")).status).toBe(400);
    const proposalId = ((await call("GET", "/api/proposals")).body as { proposals: Array<{ id: string }> }).proposals[0].id;
    expect((await call("GET", `/api/proposals/${proposalId}`)).status).toBe(200);
    expect((await call("GET", "/api/proposals/prop_000000000000")).status).toBe(404);
    expect((await call("POST", `/api/proposals/${proposalId}/decide`, { body: { decision: "accept" }, headers: { origin: "http://elsewhere.example" } })).status).toBe(403);
    expect((await call("POST", `/api/proposals/${proposalId}/decide`, { body: { decision: "maybe" } })).status).toBe(400);
    expect((await call("POST", `/api/proposals/${proposalId}/decide`, { body: { decision: "accept" } })).status).toBe(200);
    expect((await call("POST", `/api/proposals/${proposalId}/decide`, { body: { decision: "accept" } })).status).toBe(409);

    // Web search: the provider, a test search from the page, a query too long.
    expect((await call("GET", "/api/web/status")).status).toBe(200);
    expect((await call("POST", "/api/web/test", { body: { query: "example" } })).status).toBe(200);
    expect((await call("POST", "/api/web/test", { body: { query: "x".repeat(401) } })).status).toBe(400);
    // The browser: a step's screenshot by id, its page saved to knowledge; an unknown id, a session with no browser.
    if (chromium) {
      const browsed = await call("POST", "/api/chat", { body: { message: "browse the page" } });
      let step: { session?: string; shot?: string; url?: string } = {};
      for await (const event of sseEvents(browsed.response) as AsyncGenerator<ChatEvent>) {
        if (event.type === "session") step = { ...step, session: event.session_id };
        if (event.type === "tool_result") step = { ...step, shot: (event.details as { screenshot: { id: string } }).screenshot.id, url: (event.details as { url: string }).url };
      }
      expect((await call("GET", `/api/web/screenshots/${step.shot}`)).status).toBe(200);
      expect((await call("POST", "/api/web/save", { body: { session_id: step.session, url: step.url } })).status).toBe(200);
    }
    expect((await call("GET", `/api/web/screenshots/${"a".repeat(32)}`)).status).toBe(404);
    expect((await call("POST", "/api/web/save", { body: { session_id: "none", url: "http://example.org/" } })).status).toBe(409);

    // Hooks: listed, one tested against the turn's call, an unknown one, the wrong event; trust for no such skill.
    const hooks = await call("GET", "/api/hooks");
    expect(hooks.status).toBe(200);
    const hookId = (hooks.body as { hooks: Array<{ id: string }> }).hooks[0].id;
    expect((await call("POST", "/api/hooks/test", { body: { hook: hookId, event: "PostToolUse", session_id: sessionId } })).status).toBe(200);
    expect((await call("POST", "/api/hooks/test", { body: { hook: "none", event: "PostToolUse" } })).status).toBe(404);
    expect((await call("POST", "/api/hooks/test", { body: { hook: hookId, event: "Stop" } })).status).toBe(422);
    expect((await call("POST", "/api/hooks/test", { body: { hook: hookId } })).status).toBe(400);
    expect((await call("POST", "/api/hooks/trust", { body: { skill: "none", digest: "x", trusted: true } })).status).toBe(404);
    const shipped = (hooks.body as { skills: Array<{ skill: string; digest: string }> }).skills.find((s) => s.skill === "shipping-hooks")!;
    expect((await call("POST", "/api/hooks/trust", { body: { skill: "shipping-hooks", digest: "0".repeat(64), trusted: true } })).status).toBe(409);
    expect((await call("POST", "/api/hooks/trust", { body: { skill: "shipping-hooks", digest: shipped.digest, trusted: true } })).status).toBe(200);

    // A streamed turn in it, the stream, stop and queue when nothing runs.
    const streamed = await call("POST", "/api/chat", { body: { message: "hello again", session_id: sessionId } });
    expect(streamed.status).toBe(200);
    for await (const _ of sseEvents(streamed.response)) void _;
    expect((await call("GET", `/api/sessions/${sessionId}/stream`)).status).toBe(204);
    expect((await call("POST", `/api/sessions/${sessionId}/stop`)).status).toBe(409);
    expect((await call("DELETE", `/api/sessions/${sessionId}/queue/q1`)).status).toBe(404);
    expect((await call("POST", `/api/sessions/${sessionId}/compact`, { body: {} })).status).toBe(200);
    expect((await call("PATCH", `/api/sessions/${sessionId}`, { body: { title: "Contract", pinned: true } })).status).toBe(200);
    expect((await call("POST", `/api/sessions/${sessionId}/fork`, { body: { turn: 1 } })).status).toBe(201);
    const exported = await call("GET", `/api/sessions/${sessionId}/export?format=json`);
    expect(exported.status).toBe(200);
    expect((await call("GET", `/api/sessions/${sessionId}/export?format=md`)).status).toBe(200);
    expect((await call("POST", "/api/sessions/import", { body: exported.body })).status).toBe(201);
    expect((await call("POST", "/api/sessions/import", { body: { entries: "no" } })).status).toBe(400);
    const deleted = await call("DELETE", `/api/sessions/${sessionId}`);
    expect(deleted.status).toBe(200);
    expect((await call("POST", `/api/sessions/${sessionId}/restore`, { body: { trash: (deleted.body as { trash: string }).trash } })).status).toBe(200);
    expect((await call("GET", "/api/sessions/no-such-session")).status).toBe(404);

    // A call that waits for approval: a message queued behind it and taken back, then the call
    // approved from the page; another stopped while it waits; a decision on nothing.
    const waiting = await call("POST", "/api/chat", { body: { message: "delegate the sum" } });
    let waitingSession = "";
    for await (const event of sseEvents(waiting.response) as AsyncGenerator<ChatEvent>) {
      if (event.type === "session") waitingSession = event.session_id;
      if (event.type !== "approval_request") continue;
      const queued = await call("POST", "/api/chat", { body: { message: "later", session_id: waitingSession, queue: "follow_up" } });
      expect(queued.status).toBe(202);
      expect((await call("DELETE", `/api/sessions/${waitingSession}/queue/${(queued.body as { queued: string }).queued}`)).status).toBe(204);
      const alsoQueued = await call("POST", `/api/sessions/${waitingSession}/queue`, { body: { message: "later still", mode: "follow_up" } });
      expect(alsoQueued.status).toBe(202);
      expect((await call("DELETE", `/api/sessions/${waitingSession}/queue/${(alsoQueued.body as { queued: string }).queued}`)).status).toBe(204);
      expect((await call("POST", `/api/sessions/${waitingSession}/queue`, { body: { mode: "follow_up" } })).status).toBe(400);
      expect((await call("POST", `/api/approvals/${event.id}`, { body: { decision: "approve" } })).status).toBe(200);
    }
    const stopped = await call("POST", "/api/chat", { body: { message: "delegate once more", session_id: waitingSession } });
    for await (const event of sseEvents(stopped.response) as AsyncGenerator<ChatEvent>) {
      if (event.type === "approval_request") expect((await call("POST", `/api/sessions/${waitingSession}/stop`)).status).toBe(200);
    }
    expect((await call("POST", "/api/approvals/none", { body: { decision: "approve" } })).status).toBe(404);
    expect((await call("POST", "/api/approvals/none", { body: { decision: "approve" }, headers: { origin: "http://elsewhere.example" } })).status).toBe(403);

    // The UI's event stream (not JSON): documented too.
    const events = await fetch(`${wb.url}/api/events`);
    expect(events.headers.get("content-type")).toContain("text/event-stream");
    await events.body?.cancel();

    expect(failures).toEqual([]);
    // Every operation was called, and each with a 2xx reply.
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    const succeeded = new Set([...seen].filter((s) => / 2\d\d$/.test(s)).map((s) => s.replace(/ \d+$/, "")));
    const browserOnly = chromium ? [] : ["GET /api/web/screenshots/{id}", "POST /api/web/save"];
    expect(operations.filter((op) => !succeeded.has(op) && op !== "GET /api/events" && !browserOnly.includes(op))).toEqual([]);
  }, 120_000);
});
