/**
 * The fault suite: the server killed mid-turn, a full disk, a slow or flapping model, and
 * a thousand garbage requests. Each runs against real processes, files and HTTP.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionEntry } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { builtMain, startServerProcess } from "../test-support/server-process.js";
import { startScriptedModelServer } from "../test-support/scripted-model-server.js";
import { chat, entryKinds, fetchSession, postJson, sessionIdOf, sseEvents, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

const isRoot = process.getuid?.() === 0;

/** A server process on `root` talking to the scripted model, with no credentials file. */
const serverEnv = (root: string, modelBaseUrl: string) => ({
  WORKBENCH_ROOT: root,
  OPENAI_BASE_URL: modelBaseUrl,
  OPENAI_API_KEY: "k",
  OPENAI_MODEL: "m",
  KEY_FILE: join(root, "none.md"),
  MODEL_MAX_RETRIES: "0",
});

let wb: Workbench | undefined;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await wb?.close();
  wb = undefined;
});

describe("the server killed with SIGKILL in the middle of a streamed turn", () => {
  it("restarts with every entry written before the kill, and a torn last line recovered", async () => {
    expect(existsSync(builtMain), "backend/dist is missing: the backend's test script builds it first").toBe(true);
    const model = await startScriptedModelServer([
      { reasoning: "Let me look at the skill.", toolCalls: [{ name: "read_file", args: { path: "./skills/get_weather/SKILL.md" } }] },
      { content: "word ".repeat(400), chunkDelayMs: 20 },
    ]);
    const root = await mkdtemp(join(tmpdir(), "moc-kill-"));
    cleanups.push(() => model.close(), () => rm(root, { recursive: true, force: true }));
    const env = serverEnv(root, model.baseUrl);
    const first = await startServerProcess(env);
    cleanups.push(() => first.child.kill("SIGKILL"));

    const response = await postJson(`${first.url}/api/chat`, { message: "weather?", stream: true });
    let sessionId = "";
    let tokens = 0;
    try {
      for await (const event of sseEvents(response)) {
        if (event.type === "session") sessionId = event.session_id;
        if (event.type === "token" && ++tokens === 20) first.child.kill("SIGKILL");
      }
    } catch {
      // the connection dies with the server
    }
    await new Promise((r) => first.child.exitCode !== null || first.child.signalCode !== null ? r(null) : first.child.once("exit", r));
    const file = join(root, "sessions", `${sessionId}.jsonl`);
    const kindOf = (line: string) => {
      const entry = JSON.parse(line) as SessionEntry;
      return entry.type === "event" ? entry.event.type : entry.type;
    };
    // Text that streamed for over a second before the kill (a slow machine) is there too, as `token` entries.
    const written = (await readFile(file, "utf8")).split("\n").filter(Boolean).map(kindOf);
    // Streamed text and the framing of steps and blocks come and go with timing; the settled entries do not.
    const framing = /^(step|text|thought|tool_input)_(start|end|delta)$/;
    const settled = (kinds: string[]) => kinds.filter((k) => k !== "token" && k !== "usage" && !framing.test(k));
    expect(settled(written)).toEqual(["header", "snapshot", "user", "thought", "tool_call", "skill", "tool_result"]);
    const torn = '{"type":"event","ts":"2026-11-21T00:00:0';
    await appendFile(file, torn); // a write cut short by the crash

    const second = await startServerProcess(env);
    cleanups.push(() => second.child.kill("SIGKILL"));
    const session = await fetchSession(second.url, sessionId);
    expect(entryKinds(session.entries)).toEqual(written.slice(1));
    expect(session.recovered_torn_line).toBe(true);
    expect(session.running).toBe(false); // the last turn was cut short: the Stage shows it interrupted
    // The session takes new turns, and its file stays valid line by line.
    model.setScript([{ content: "back again" }]);
    const events = await postJson(`${second.url}/api/chat`, { message: "still there?", session_id: sessionId, stream: false });
    expect(((await events.json()) as { content: string }).content).toBe("back again");
    const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean);
    const after = lines.filter((l) => l !== torn).map(kindOf).slice(written.length);
    expect(settled(after)).toEqual(["user", "final"]);
    expect(after).toContain("token");
  }, 40_000);
});

describe("the server killed with SIGKILL while an answer streams", () => {
  it("the reopened session holds the streamed text up to the last second, marked interrupted, and takes new turns", async () => {
    expect(existsSync(builtMain), "backend/dist is missing: the backend's test script builds it first").toBe(true);
    const answer = Array.from({ length: 800 }, (_, i) => `w${i}`).join(" ");
    const model = await startScriptedModelServer([{ reasoning: "Thinking it over.", content: answer, chunkDelayMs: 10 }]);
    const root = await mkdtemp(join(tmpdir(), "moc-kill-stream-"));
    cleanups.push(() => model.close(), () => rm(root, { recursive: true, force: true }));
    const env = serverEnv(root, model.baseUrl);
    const first = await startServerProcess(env);
    cleanups.push(() => first.child.kill("SIGKILL"));

    const response = await postJson(`${first.url}/api/chat`, { message: "talk", stream: true });
    let sessionId = "";
    let seen = "";
    const seenAt: Array<{ at: number; length: number }> = [];
    let killedAt = 0;
    try {
      for await (const event of sseEvents(response)) {
        if (event.type === "session") sessionId = event.session_id;
        if (event.type !== "token") continue;
        seen += event.content;
        seenAt.push({ at: performance.now(), length: seen.length });
        if (performance.now() - seenAt[0].at > 2500 && killedAt === 0) {
          killedAt = performance.now();
          first.child.kill("SIGKILL");
        }
      }
    } catch {
      // the connection dies with the server
    }
    expect(killedAt).toBeGreaterThan(0);
    await new Promise((r) => (first.child.exitCode !== null || first.child.signalCode !== null ? r(null) : first.child.once("exit", r)));

    const second = await startServerProcess(env);
    cleanups.push(() => second.child.kill("SIGKILL"));
    const session = await fetchSession(second.url, sessionId);
    const stored = storedEvents(session.entries);
    expect(stored.some((e) => e.type === "final" || e.type === "error")).toBe(false); // cut short: replays as interrupted
    expect(session.running).toBe(false);
    const saved = stored.map((e) => (e.type === "token" ? e.content : "")).join("");
    expect(answer.startsWith(saved)).toBe(true);
    // Everything shown more than a second (plus scheduling slack) before the kill is there.
    const shownBefore = seenAt.filter((s) => s.at <= killedAt - 1300).at(-1)?.length ?? 0;
    expect(saved.length).toBeGreaterThanOrEqual(shownBefore);
    expect(stored.find((e) => e.type === "thought")).toMatchObject({ type: "thought", content: "Thinking it over." });

    model.setScript([{ content: "back again" }]);
    const reply = await postJson(`${second.url}/api/chat`, { message: "go on", session_id: sessionId, stream: false });
    expect(((await reply.json()) as { content: string }).content).toBe("back again");
    // The model is sent what the user saw of the interrupted answer.
    expect(JSON.stringify(model.requests.at(-1)!.body.messages)).toContain(saved.slice(0, 200));
  }, 40_000);
});

describe.skipIf(!isRoot)("a disk that fills up (a 64 KB tmpfs; needs root)", () => {
  async function smallDisk(path: string) {
    await mkdir(path, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", path]);
    cleanups.push(() => execFileSync("umount", ["-l", path]));
  }

  it("a file save fails with a clear error and the previous content intact", async () => {
    wb = await startWorkbench();
    const dir = join(wb.dataRoot, "memory", "small");
    await smallDisk(dir);
    const first = await postJson(`${wb.url}/api/files`, { path: "memory/small/notes.md", content: "version one\n" });
    expect(first.status).toBe(200);
    const big = await postJson(`${wb.url}/api/files`, { path: "memory/small/notes.md", content: "x".repeat(200_000) });
    expect(big.status).toBe(507);
    expect(await big.json()).toEqual({ error: "The disk is full: nothing was saved, and the previous content is intact.", code: "disk_full" });
    expect(await readFile(join(dir, "notes.md"), "utf8")).toBe("version one\n");
    expect((await readdir(dir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("a session write fails: the turn ends with a storage error, and the server keeps serving", async () => {
    wb = await startWorkbench({ script: () => ({ content: "y".repeat(90_000) }) });
    const id = sessionIdOf(await chat(wb, "hi")); // fine: the real disk
    await rm(join(wb.dataRoot, "sessions"), { recursive: true });
    await smallDisk(join(wb.dataRoot, "sessions"));
    await writeFile(join(wb.dataRoot, "sessions", `${id}.jsonl`), `${JSON.stringify({ type: "user", ts: "t", content: "hi" })}\n`);
    const events = await chat(wb, "again", id);
    expect(events[events.length - 1]).toMatchObject({ type: "error", code: "storage", message: expect.stringContaining("the disk is full") });
    expect((await fetch(`${wb.url}/api/sessions/${id}`)).status).toBe(200);
    expect((await fetch(`${wb.url}/api/health`)).status).toBe(200);
  });
});
if (!isRoot) console.warn("\n!!! SKIPPING the full-disk tests: mounting a small tmpfs needs root !!!\n");

describe("a slow or flapping model", () => {
  it("30 s to the first byte: the wait is bounded by MODEL_TIMEOUT_MS and the error says so", async () => {
    wb = await startWorkbench({ script: [{ content: "late", firstByteDelayMs: 30_000 }], env: { MODEL_TIMEOUT_MS: "1500" } });
    const started = Date.now();
    const events = await chat(wb, "hello");
    expect(Date.now() - started).toBeLessThan(6000);
    expect(events[events.length - 1]).toMatchObject({ type: "error", code: "model_timeout", message: expect.stringMatching(/sent nothing for 2 s|did not answer within 2 s/) });
  });

  it("a flapping endpoint (500, then fine) is retried and the turn succeeds", async () => {
    wb = await startWorkbench({ script: [{ kind: "error", status: 500, message: "flap" }, { content: "steady now" }], env: { MODEL_MAX_RETRIES: "2" } });
    const events = await chat(wb, "hello");
    expect(events[events.length - 1]).toMatchObject({ type: "final", content: "steady now" });
    expect(wb.model.requests).toHaveLength(2);
  });
});

describe("1,000 garbage requests against every endpoint", () => {
  async function treeHash(root: string): Promise<string> {
    const hash = createHash("sha256");
    const walk = async (dir: string) => {
      for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        // storage/ (the index) and .checkpoints/ (the change store's first keeping of every file) fill in the background.
        else if (entry.isFile() && !full.includes("/storage/") && !full.includes("/.checkpoints/")) hash.update(full).update(await readFile(full));
      }
    };
    await walk(root);
    return hash.digest("hex");
  }

  function raw(url: string, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; body: string }> {
    const { port } = new URL(url);
    return new Promise((res) => {
      // A fresh connection each time: the server closes one after a 431, which would fail the next pooled request.
      const req = httpRequest({ host: "127.0.0.1", port, method, path, headers, agent: false }, (r) => {
        let text = "";
        r.on("data", (c) => (text += c));
        r.on("end", () => res({ status: r.statusCode ?? 0, body: text }));
        r.on("error", () => res({ status: -1, body: "" }));
      });
      req.on("error", () => res({ status: -1, body: "" }));
      if (body) req.write(body);
      req.end();
    });
  }

  it("no crash, no 500 that leaks a stack trace, no file changed", async () => {
    wb = await startWorkbench();
    const before = await treeHash(wb.dataRoot);
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const endpoints: Array<[string, string]> = [
      ["POST", "/api/chat"], ["POST", "/api/files"], ["GET", "/api/files"], ["GET", "/api/files/list"], ["GET", "/api/sessions"],
      ["GET", "/api/sessions/"], ["GET", "/api/skills"], ["GET", "/api/prompt"], ["GET", "/api/health"],
      ["GET", "/api/knowledge/search"], ["GET", "/api/knowledge/status"], ["POST", "/api/knowledge/rebuild"], ["PUT", "/api/chat"],
    ];
    const garbagePath = () => ["%00", "..%2f..%2f", encodeURIComponent("💥/ü"), "%ff%fe", "a".repeat(3000), "?path=/etc/passwd", "?q=" + "%".repeat(20), "?path=../../KEY.md", "/..;/", "?k=-1&q=x"][rand(10)];
    const garbageBody = (): Buffer => {
      switch (rand(6)) {
        case 0: return randomBytes(rand(4000));
        case 1: return Buffer.from("[".repeat(20_000) + "]".repeat(20_000));
        case 2: return Buffer.from(JSON.stringify({ message: 42, path: ["x"], content: null, session_id: { a: 1 } }));
        case 3: return Buffer.from(`{"path":"../${"x".repeat(rand(100))}","content":"pwned"}`);
        case 4: return Buffer.from('{"message": "\\ud800 unpaired", "session_id": "../../etc"}');
        default: return Buffer.from("not json at all \u0000\u0001");
      }
    };
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const [method, path] = endpoints[rand(endpoints.length)];
      const headers: Record<string, string> = { "content-type": ["application/json", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1"][rand(4)] };
      if (rand(10) === 0) headers["x-huge"] = "h".repeat(40_000);
      if (rand(10) === 0) headers.origin = "https://evil.example";
      const body = method === "GET" ? undefined : garbageBody();
      const response = await raw(wb.url, method, path + (rand(2) ? garbagePath() : ""), headers, body);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500) {
        expect(response.body, `${method} ${path}`).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+|\.js:\d+/);
      }
    }
    expect([...statuses.keys()].filter((s) => s >= 500 || s === -1), JSON.stringify(Object.fromEntries(statuses))).toEqual([]);
    expect((await fetch(`${wb.url}/api/health`)).status).toBe(200);
    expect(await treeHash(wb.dataRoot)).toBe(before);
  }, 60_000);
});
