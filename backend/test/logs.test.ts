/**
 * The server's log as a person reads it (issue 31): requests at debug level, one info line per
 * finished turn with its session, tokens and duration, and, piped, one JSON object per line.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedModelServer, startScriptedModelServer } from "../test-support/scripted-model-server.js";
import { type ServerProcess, startServerProcess } from "../test-support/server-process.js";
import { postJson } from "../test-support/workbench-harness.js";

let server: ServerProcess | undefined;
let model: ScriptedModelServer | undefined;
let root: string | undefined;
afterEach(async () => {
  server?.child.kill("SIGKILL");
  await model?.close();
  if (root) await rm(root, { recursive: true, force: true });
  server = model = root = undefined;
});

const lines = (s: ServerProcess) => s.stdout.join("").split("\n").filter((l) => l.trim() !== "");
const parsed = (s: ServerProcess) => lines(s).map((l) => JSON.parse(l) as { level: number; msg: string; [key: string]: unknown });
const INFO = 30;

async function start(level = "info") {
  model = await startScriptedModelServer([{ content: "Hello there, fine.", usage: { prompt_tokens: 120, completion_tokens: 7 } }]);
  root = await mkdtemp(join(tmpdir(), "moc-logs-"));
  server = await startServerProcess({ WORKBENCH_ROOT: root, KEY_FILE: join(root, "none.md"), OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "m", LOG_LEVEL: level });
  // The start-up lines (and health checks while it started) are not what is measured.
  await new Promise((r) => setTimeout(r, 300));
  return server;
}

describe("the log", () => {
  it("piped: every line is JSON; five plain GETs write no info line; a turn writes exactly one, with session, tokens and duration", async () => {
    const s = await start();
    const before = lines(s).length;
    for (const path of ["/api/health", "/api/sessions", "/api/skills", "/api/files/list", "/api/prompt"]) expect((await fetch(`${s.url}${path}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(parsed(s).slice(before).filter((l) => l.level >= INFO)).toEqual([]);

    const reply = (await (await postJson(`${s.url}/api/chat`, { message: "hi", stream: false })).json()) as { session_id: string };
    await new Promise((r) => setTimeout(r, 300));
    const info = parsed(s).slice(before).filter((l) => l.level === INFO);
    expect(info).toHaveLength(1);
    expect(info[0]).toMatchObject({ msg: "turn finished", session_id: reply.session_id, turn: 1, outcome: "answered", input_tokens: 120, output_tokens: 7, tool_calls: 0 });
    expect(info[0].duration_ms).toEqual(expect.any(Number));
    // Nothing but JSON on stdout, from start to end.
    for (const line of lines(s)) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("at debug level, each request is one line with method, url, status and time", async () => {
    const s = await start("debug");
    const before = lines(s).length;
    await fetch(`${s.url}/api/sessions`);
    await new Promise((r) => setTimeout(r, 200));
    const requests = parsed(s).slice(before).filter((l) => l.msg === "request");
    expect(requests).toEqual([expect.objectContaining({ method: "GET", url: "/api/sessions", status: 200, ms: expect.any(Number) })]);
  });
});

describe("a failed turn in the log", () => {
  it("is one warn line with the outcome, the endpoint and the network's reason, and never the key", async () => {
    root = await mkdtemp(join(tmpdir(), "moc-logs-"));
    // A port nothing listens on any more.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    server = await startServerProcess({ WORKBENCH_ROOT: root, KEY_FILE: join(root, "none.md"), OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: "sk-log-secret-5521", OPENAI_MODEL: "m", MODEL_MAX_RETRIES: "0" });
    await new Promise((r) => setTimeout(r, 300));
    const before = lines(server).length;
    const reply = (await (await postJson(`${server.url}/api/chat`, { message: "hi", stream: false })).json()) as { session_id?: string };
    await new Promise((r) => setTimeout(r, 300));
    const failed = parsed(server).slice(before).filter((l) => l.msg === "turn failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 40, outcome: "model_unreachable", session_id: reply.session_id });
    expect(failed[0].error).toBe(`Cannot reach the model endpoint http://127.0.0.1:${port}/v1 (connect ECONNREFUSED 127.0.0.1:${port}): is the server running? Check the base URL in the Model dialog (OPENAI_BASE_URL).`);
    expect(server.stdout.join("")).not.toContain("sk-log-secret-5521");
  });
});

describe("saving the model in the log", () => {
  it("is one info line with the model, the endpoint's origin and whether the key changed, and never the key", async () => {
    root = await mkdtemp(join(tmpdir(), "moc-logs-"));
    // The model in KEY.md (settings in the environment would win over a save, which refuses to change them).
    await writeFile(join(root, "KEY.md"), "OPENAI_BASE_URL=http://127.0.0.1:9/v1\nOPENAI_API_KEY=sk-old-1\nOPENAI_MODEL=m\n");
    server = await startServerProcess({ WORKBENCH_ROOT: root, KEY_FILE: join(root, "KEY.md") });
    const before = lines(server).length;
    const saved = await fetch(`${server.url}/api/model`, {
      method: "PUT",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ base_url: "http://user:pw@127.0.0.1:11434/v1", model: "qwen3:8b", api_key: "sk-new-secret-7731" }),
    });
    expect(saved.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const logged = parsed(server).slice(before).filter((l) => l.msg === "model saved");
    expect(logged).toEqual([expect.objectContaining({ level: 30, model: "qwen3:8b", endpoint: "http://127.0.0.1:11434", key_changed: true })]);
    const text = server.stdout.join("");
    expect(text).not.toContain("sk-new-secret-7731");
    expect(text).not.toContain("user:pw");
  });
});
