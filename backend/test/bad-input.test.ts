import { request as httpRequest } from "node:http";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chat, postJson, sessionIdOf, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench;
let outside: string;

beforeAll(async () => {
  // The model stalls briefly so a turn can be caught while it runs.
  wb = await startWorkbench({ script: () => ({ content: "ok", firstByteDelayMs: 1000 }) });
  outside = await mkdtemp(join(tmpdir(), "moc-outside-"));
  await writeFile(join(outside, "secret.txt"), "TOP SECRET");
  await symlink(join(outside, "secret.txt"), join(wb.dataRoot, "memory/escape.md"));
  await symlink(join(outside, "secret.txt"), join(wb.dataRoot, "memory/escape-for-tool.md"));
  await symlink(outside, join(wb.dataRoot, "knowledge/linked-dir"));
  await writeFile(join(wb.dataRoot, "KEY.md"), "OPENAI_API_KEY=sk-should-never-leak\n");
});
afterAll(async () => {
  await wb?.close();
  await rm(outside, { recursive: true, force: true });
});

/** The stable code each status's errors carry (the UI words it in the user's language). */
const CODE_OF: Record<number, string> = { 400: "invalid_request", 403: "refused", 404: "not_found", 409: "conflict", 413: "too_large", 415: "unsupported_type", 422: "unprocessable", 429: "limit_reached" };

async function expectError(response: Response, status: number, pattern: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
  const body = (await response.json()) as { error: string; code: string };
  expect(body.error).toMatch(pattern);
  expect(body.code).toBe(CODE_OF[status] ?? body.code);
  expect(typeof body.code).toBe("string");
  expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/); // no stack traces
}

/** Raw HTTP so the Host header can be set (fetch forbids it). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { port } = new URL(wb.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("bad chat requests get a clear JSON error and the server keeps serving", () => {
  const url = () => `${wb.url}/api/chat`;

  it("invalid JSON", async () => expectError(await postJson(url(), "{not json"), 400, /not valid JSON/));
  it("missing message", async () => expectError(await postJson(url(), { stream: true }), 400, /message/));
  it("empty message", async () => expectError(await postJson(url(), { message: "   " }), 400, /non-empty/));
  it("message of the wrong type", async () => expectError(await postJson(url(), { message: 42 }), 400, /message/));
  it("message over the size limit", async () =>
    expectError(await postJson(url(), { message: "x".repeat(wb.config.limits.messageChars + 1) }), 413, /over the 100000 limit/));
  it("body over the body limit", async () =>
    expectError(await postJson(url(), { message: "x".repeat(5_000_000) }), 413, /too large/));
  for (const bad of ["../etc", "a/b", "..", "a b", "a.b", "%2e%2e", "x".repeat(65), "é"]) {
    it(`session_id ${JSON.stringify(bad.slice(0, 12))}`, async () =>
      expectError(await postJson(url(), { message: "hi", session_id: bad }), 400, /Invalid session_id/));
  }
  it("unknown session", async () =>
    expectError(await postJson(url(), { message: "hi", session_id: "does-not-exist" }), 404, /Unknown session/));
  it("unknown session id in GET /api/sessions/:id", async () =>
    expectError(await fetch(`${wb.url}/api/sessions/nope`), 404, /Unknown session/));
  it("unsafe session id in GET /api/sessions/:id", async () =>
    expectError(await fetch(`${wb.url}/api/sessions/..%2F..%2Fetc`), 400, /Invalid session_id/));

  it("a second concurrent turn on the same session is refused with 409", async () => {
    const id = sessionIdOf(await chat(wb, "first"));
    const before = wb.model.requests.length;
    const running = postJson(url(), { message: "slow one", session_id: id, stream: false });
    // Once the model has the first turn's request, that turn certainly holds the session.
    await expect.poll(() => wb.model.requests.length, { timeout: 5000 }).toBe(before + 1);
    await expectError(await postJson(url(), { message: "second", session_id: id }), 409, /already running/);
    expect((await running).status).toBe(200);
    // Once done, the session takes turns again.
    expect((await postJson(url(), { message: "third", session_id: id, stream: false })).status).toBe(200);
  });

  it("text/plain bodies are refused (no CSRF through simple requests)", async () => {
    const response = await fetch(url(), { method: "POST", headers: { "content-type": "text/plain" }, body: '{"message":"hi"}' });
    await expectError(response, 415, /application\/json/);
  });

  it("unknown API routes answer JSON 404", async () => expectError(await fetch(`${wb.url}/api/nope`), 404, /Not found/));

  it("still serves after all that", async () => {
    expect((await fetch(`${wb.url}/api/health`)).status).toBe(200);
  });
});

describe("file paths are confined to the data root", () => {
  const read = (path: string) => fetch(`${wb.url}/api/files?path=${encodeURIComponent(path)}`);
  const readRaw = (query: string) => fetch(`${wb.url}/api/files?path=${query}`);

  it("reads and saves a file inside the root", async () => {
    const saved = await postJson(`${wb.url}/api/files`, { path: "workspace/USER.md", content: "# User\nName: Ada\n" });
    expect(saved.status).toBe(200);
    expect(await (await read("workspace/USER.md")).json()).toEqual({ path: "workspace/USER.md", content: "# User\nName: Ada\n" });
    // The snapshot's location form is accepted too.
    expect((await read("./skills/get_weather/SKILL.md")).status).toBe(200);
  });

  it("refuses '..'", async () => expectError(await read("../outside.txt"), 403, /'\.\.' is refused/));
  it("refuses '..' in the middle", async () => expectError(await read("memory/../../etc/passwd"), 403, /'\.\.'/));
  it("refuses absolute paths", async () => expectError(await read("/etc/passwd"), 403, /Absolute paths/));
  it("refuses URL-encoded traversal", async () => {
    await expectError(await readRaw("..%2F..%2Fetc%2Fpasswd"), 403, /'\.\.'/);
    await expectError(await readRaw("%252e%252e%252fetc%252fpasswd"), 400, /Percent-encoded/);
  });
  it("refuses a symlink inside the root, at the end of the path or in the middle", async () => {
    await expectError(await read("memory/escape.md"), 403, /symlink refused/);
    await expectError(await read("knowledge/linked-dir/secret.txt"), 403, /symlink refused/);
  });
  it("refuses KEY.md, wherever it is", async () => {
    await expectError(await read("KEY.md"), 403, /KEY\.md/);
    await expectError(await read("key.md"), 403, /KEY\.md/);
    await expectError(await postJson(`${wb.url}/api/files`, { path: "KEY.md", content: "x" }), 403, /KEY\.md/);
  });
  it("refuses writes through a symlink or outside the root, and leaves the target untouched", async () => {
    await expectError(await postJson(`${wb.url}/api/files`, { path: "knowledge/linked-dir/secret.txt", content: "pwned" }), 403, /leaves/);
    await expectError(await postJson(`${wb.url}/api/files`, { path: "../pwned.txt", content: "pwned" }), 403, /'\.\.'/);
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("TOP SECRET");
  });
  it("a write onto a symlink replaces the link, never the file it points to", async () => {
    expect((await postJson(`${wb.url}/api/files`, { path: "memory/escape.md", content: "replaced" })).status).toBe(200);
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("TOP SECRET");
    expect(await readFile(join(wb.dataRoot, "memory/escape.md"), "utf8")).toBe("replaced");
  });
  it("refuses an oversize file save and keeps the previous content", async () => {
    const before = await readFile(join(wb.dataRoot, "memory/MEMORY.md"), "utf8");
    await expectError(
      await postJson(`${wb.url}/api/files`, { path: "memory/MEMORY.md", content: "x".repeat(wb.config.limits.fileBytes + 1) }),
      413,
      /over the 1000000-byte limit/,
    );
    expect(await readFile(join(wb.dataRoot, "memory/MEMORY.md"), "utf8")).toBe(before);
  });
  it("refuses writes into sessions/ and to the generated snapshot", async () => {
    await expectError(await postJson(`${wb.url}/api/files`, { path: "sessions/x.jsonl", content: "{}" }), 403, /written by the workbench/);
    await expectError(await postJson(`${wb.url}/api/files`, { path: "SKILLS_SNAPSHOT.md", content: "x" }), 403, /generated/);
  });
  it("answers 404 for a missing file and 400 for a folder", async () => {
    await expectError(await read("memory/nothing.md"), 404, /No such file/);
    await expectError(await read("memory"), 400, /folder/);
  });
  it("read_file refuses the same escapes when the model asks", async () => {
    wb.model.setScript((body) => {
      const paths = ["../outside.txt", "/etc/passwd", "memory/escape-for-tool.md", "KEY.md", "..%2Fx", "knowledge/linked-dir/secret.txt"];
      const last = body.messages[body.messages.length - 1];
      if (last.role === "tool") return { content: "done" };
      return { toolCalls: paths.map((path) => ({ name: "read_file", args: { path } })) };
    });
    const events = await chat(wb, "read things");
    const results = events.filter((e) => e.type === "tool_result");
    expect(results).toHaveLength(6);
    for (const result of results) expect(result).toMatchObject({ ok: false, output: expect.stringMatching(/^Error: /) });
    expect(JSON.stringify(events)).not.toContain("TOP SECRET");
    expect(JSON.stringify(events)).not.toContain("sk-should-never-leak");
    wb.model.setScript(() => ({ content: "ok" }));
  });
});

describe("localhost hardening", () => {
  it("refuses a request whose Host is not a local name (DNS rebinding)", async () => {
    const response = await rawGet("/api/health", { host: "evil.example" });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).error).toMatch(/not allowed/);
    expect((await rawGet("/api/health", { host: "evil.example:8002" })).status).toBe(403);
    expect((await rawGet("/api/health", { host: "127.0.0.1.evil.example" })).status).toBe(403);
    expect((await rawGet("/api/health", { host: `localhost:${new URL(wb.url).port}` })).status).toBe(200);
  });

  it("refuses a cross-origin POST and accepts our own origin", async () => {
    const body = { path: "workspace/USER.md", content: "from elsewhere" };
    await expectError(await postJson(`${wb.url}/api/files`, body, { headers: { origin: "https://evil.example" } }), 403, /Cross-origin/);
    await expectError(await postJson(`${wb.url}/api/files`, body, { headers: { origin: "null" } }), 403, /Cross-origin/);
    await expectError(await postJson(`${wb.url}/api/files`, body, { headers: { origin: "http://localhost:1" } }), 403, /Cross-origin/);
    expect(await readFile(join(wb.dataRoot, "workspace/USER.md"), "utf8")).not.toBe("from elsewhere");
    const ours = await postJson(`${wb.url}/api/files`, { path: "workspace/USER.md", content: "# User\n" }, { headers: { origin: wb.url } });
    expect(ours.status).toBe(200);
  });

  it("binds 127.0.0.1 by default", async () => {
    const { loadConfig } = await import("../src/config/config.js");
    expect(loadConfig({}, "/nonexistent/KEY.md")).toMatchObject({ host: "127.0.0.1", port: 8002 });
  });
});

describe("the data root", () => {
  it("an empty or partial data root gets the default files, and user edits are kept", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-partial-"));
    await mkdir(join(root, "workspace"), { recursive: true });
    await writeFile(join(root, "workspace/SOUL.md"), "my own soul");
    const partial = await startWorkbench({ dataRoot: root });
    try {
      expect(await readFile(join(root, "workspace/SOUL.md"), "utf8")).toBe("my own soul");
      for (const file of ["workspace/IDENTITY.md", "workspace/USER.md", "workspace/AGENTS.md", "memory/MEMORY.md", "skills/get_weather/SKILL.md"]) {
        expect((await readFile(join(root, file), "utf8")).length).toBeGreaterThan(50);
      }
    } finally {
      await partial.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it("WORKBENCH_LANGUAGE=zh: a new data root gets its default files in Chinese (workspace files, MEMORY.md, skills, roles); a file the user has stays", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-zh-"));
    await mkdir(join(root, "workspace"), { recursive: true });
    await writeFile(join(root, "workspace/USER.md"), "my own notes");
    const zh = await startWorkbench({ dataRoot: root, env: { WORKBENCH_LANGUAGE: "zh-CN" } });
    try {
      expect(await readFile(join(root, "workspace/SOUL.md"), "utf8")).toMatch(/^# 灵魂\n/);
      expect(await readFile(join(root, "memory/MEMORY.md"), "utf8")).toMatch(/^# 记忆\n/);
      // The heartbeat's checklist keeps the word the heartbeat listens for.
      expect(await readFile(join(root, "workspace/HEARTBEAT.md"), "utf8")).toContain("`HEARTBEAT_OK`");
      expect(await readFile(join(root, "workspace/USER.md"), "utf8")).toBe("my own notes");
      // Skills and roles too, under the names the agent calls them by.
      expect(await readFile(join(root, "skills/get_weather/SKILL.md"), "utf8")).toMatch(/name: get_weather\ndescription: 某个城市的当前天气/);
      expect(await readFile(join(root, "agents/researcher.md"), "utf8")).toMatch(/name: researcher\ndescription: 在网上/);
      const skills = (await (await fetch(`${zh.url}/api/skills`)).json()) as { skills: Array<{ name: string; description: string }> };
      expect(skills.skills.find((s) => s.name === "pm-analysis")?.description).toMatch(/^把产品需求/);
      // Chosen by the environment: no browser changes it.
      expect(await (await fetch(`${zh.url}/api/defaults-language`)).json()).toEqual({ language: "zh", chosen_by: "environment", pending: false });
      // And the model is sent them.
      const prompt = (await (await fetch(`${zh.url}/api/prompt`)).json()) as { text?: string; sections?: Array<{ content?: string }> };
      expect(JSON.stringify(prompt)).toContain("你是一个细心、坦率的助手");
    } finally {
      await zh.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("the default files' language, chosen by a new data root's first browser", () => {
  it("without WORKBENCH_LANGUAGE: English, then the first browser's zh puts the files still as shipped in Chinese, once; a changed one stays", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-first-browser-"));
    const fresh = await startWorkbench({ dataRoot: root });
    try {
      const origin = { headers: { origin: fresh.url } };
      expect(await (await fetch(`${fresh.url}/api/defaults-language`)).json()).toEqual({ language: "en", chosen_by: "default", pending: true });
      expect(await readFile(join(root, "workspace/SOUL.md"), "utf8")).not.toMatch(/灵魂/);
      await writeFile(join(root, "workspace/USER.md"), "I prefer short answers.");
      await rm(join(root, "agents/analyst.md"));
      expect((await postJson(`${fresh.url}/api/defaults-language`, { language: "fr" }, origin)).status).toBe(400);
      const chosen = await postJson(`${fresh.url}/api/defaults-language`, { language: "zh" }, origin);
      expect(chosen.status).toBe(200);
      const reply = (await chosen.json()) as { language: string; chosen_by: string; pending: boolean; replaced: string[] };
      expect([reply.language, reply.chosen_by, reply.pending]).toEqual(["zh", "browser", false]);
      expect(reply.replaced).toEqual(expect.arrayContaining(["workspace/SOUL.md", "memory/MEMORY.md", "skills/get_weather/SKILL.md", "agents/researcher.md"]));
      expect(reply.replaced).not.toContain("workspace/USER.md");
      expect(reply.replaced).not.toContain("agents/analyst.md");
      expect(await readFile(join(root, "workspace/SOUL.md"), "utf8")).toMatch(/^# 灵魂\n/);
      expect(await readFile(join(root, "workspace/USER.md"), "utf8")).toBe("I prefer short answers.");
      await expect(readFile(join(root, "agents/analyst.md"), "utf8")).rejects.toThrow(/ENOENT/);
      // The user's choice, as a save of theirs: the heartbeat runs the Chinese checklist, no change waits to be accepted.
      expect(reply.replaced).toContain("workspace/HEARTBEAT.md");
      const tasks = (await (await fetch(`${fresh.url}/api/tasks`)).json()) as { heartbeat: { checklist_change?: unknown } };
      expect(tasks.heartbeat.checklist_change ?? null).toBeNull();
      // Once: a second browser's choice is refused and changes nothing.
      const again = await postJson(`${fresh.url}/api/defaults-language`, { language: "en" }, origin);
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error: string }).error).toMatch(/chosen already \(zh, by the first browser\)/);
      expect(await readFile(join(root, "workspace/SOUL.md"), "utf8")).toMatch(/^# 灵魂\n/);
    } finally {
      await fresh.close();
    }
    // The same data root started again is not new: nothing to choose.
    const again = await startWorkbench({ dataRoot: root });
    try {
      expect(await (await fetch(`${again.url}/api/defaults-language`)).json()).toEqual({ language: "en", chosen_by: "default", pending: false });
    } finally {
      await again.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("the Inspector's file list", () => {
  it("lists workspace, memory and skill files, never KEY.md or sessions", async () => {
    await writeFile(join(wb.dataRoot, "skills/get_weather/key.md"), "x");
    const { files } = (await (await fetch(`${wb.url}/api/files/list`)).json()) as { files: Array<{ path: string; group: string }> };
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["workspace/SOUL.md", "workspace/AGENTS.md", "memory/MEMORY.md", "skills/get_weather/SKILL.md"]));
    expect(paths.some((p) => /key\.md$/i.test(p) || p.startsWith("sessions/"))).toBe(false);
  });
});
