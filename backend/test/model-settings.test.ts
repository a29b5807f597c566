/**
 * Setting the model up from the UI: the settings API reads (never the key), tries and saves to
 * KEY.md, and the next message uses the new settings without a restart.
 */
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelSettingsReply, ModelTestReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { projectRoot } from "../src/config/project-paths.js";
import { type ChatRequestBody, startScriptedModelServer } from "../test-support/scripted-model-server.js";
import { startServerProcess } from "../test-support/server-process.js";
import { chat, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

const KEY = "sk-typed-in-the-dialog-0c9f1e";
let wb: Workbench | undefined;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function withKeyFile() {
  const dir = await mkdtemp(join(tmpdir(), "moc-keyfile-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await copyFile(join(projectRoot, "KEY.example.md"), join(dir, "KEY.example.md"));
  return join(dir, "KEY.md");
}

const send = (method: string, url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("the model settings", () => {
  it("are saved to KEY.md, used by the next message without a restart, and never send the key back", async () => {
    const keyFile = await withKeyFile();
    wb = await startWorkbench({ noModel: true, keyFile, script: [{ content: "Configured from the UI." }] });
    expect((await chat(wb, "hi")).at(-1)).toMatchObject({ type: "error", code: "model_not_configured" });

    const saved = await send("PUT", `${wb.url}/api/model`, { base_url: wb.model.baseUrl, model: "scripted-model", api_key: KEY });
    expect(saved.status).toBe(200);
    const text = await saved.text();
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toMatchObject({ base_url: wb.model.baseUrl, model: "scripted-model", api_key_set: true, from_environment: [] });

    const file = await readFile(keyFile, "utf8");
    expect(file).toContain(`OPENAI_API_KEY=${KEY}\n`);
    expect(file).toContain(`OPENAI_BASE_URL=${wb.model.baseUrl}\n`);
    expect(file).toContain("## Chat model"); // the template's explanations stay
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);

    expect((await chat(wb, "hi")).at(-1)).toMatchObject({ type: "final", content: "Configured from the UI." });
    expect(wb.model.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    const read = await (await fetch(`${wb.url}/api/model`)).text();
    expect(read).not.toContain(KEY);
    expect(await (await fetch(`${wb.url}/api/health`)).json()).toMatchObject({ model: { configured: true, model: "scripted-model" } });

    // An absent key keeps the saved one; an empty key removes it.
    await send("PUT", `${wb.url}/api/model`, { base_url: wb.model.baseUrl, model: "other-model" });
    expect(await readFile(keyFile, "utf8")).toContain(`OPENAI_API_KEY=${KEY}\n`);
    const cleared = (await (await send("PUT", `${wb.url}/api/model`, { base_url: wb.model.baseUrl, model: "other-model", api_key: "" })).json()) as ModelSettingsReply;
    expect(cleared.api_key_set).toBe(false);
    expect(await readFile(keyFile, "utf8")).not.toContain(KEY);
  });

  it("refuse bad input and a page of another origin, and leave settings the environment sets alone", async () => {
    const keyFile = await withKeyFile();
    wb = await startWorkbench({ keyFile });
    for (const body of [{ model: "" }, { base_url: "ftp://x", model: "m" }, { base_url: "not a url", model: "m" }, { model: "m", api_key: "a\nb" }, { model: "two words" },
      // Control characters in any field (a newline in base_url would be a second line of KEY.md).
      { base_url: "http://127.0.0.1:9/v1\nOPENAI_API_KEY=x", model: "m" }, { base_url: "http://127.0.0.1:9/v1\r", model: "m" }, { model: "m\u0000" },
      { model: "m", api_key: "k\u001b" }, { model: "m", embedding: { model: "e", base_url: "http://127.0.0.1:9/v1\n" } }]) {
      expect((await send("PUT", `${wb.url}/api/model`, body)).status).toBe(400);
    }
    const foreign = await send("PUT", `${wb.url}/api/model`, { base_url: "http://127.0.0.1:9/v1", model: "m" }, { origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    // The harness sets OPENAI_BASE_URL, OPENAI_MODEL and OPENAI_API_KEY in the environment.
    const blocked = await send("PUT", `${wb.url}/api/model`, { base_url: "http://127.0.0.1:9/v1", model: "scripted" });
    expect(blocked.status).toBe(409);
    expect(((await blocked.json()) as { error: string }).error).toMatch(/OPENAI_BASE_URL is set in the environment/);
    await expect(stat(keyFile)).rejects.toThrow(); // nothing was written
  });
});

describe("the embedding endpoint", () => {
  it("is saved beside the chat model; the knowledge base switches to it and embeds its documents again, no restart", async () => {
    const keyFile = await withKeyFile();
    wb = await startWorkbench({ noModel: true, keyFile });
    await writeFile(join(wb.dataRoot, "knowledge/notes.md"), "Sauerkraut ferments for three weeks.\n");
    await expect.poll(async () => ((await (await fetch(`${wb!.url}/api/knowledge/status`)).json()) as { chunks: number }).chunks, { timeout: 10000 }).toBeGreaterThan(0);
    const status = async () => (await (await fetch(`${wb!.url}/api/knowledge/status`)).json()) as { embedder: { label: string } };
    expect((await status()).embedder.label).toMatch(/offline/);

    const test = (await (await send("POST", `${wb.url}/api/model/test`, { base_url: wb.model.baseUrl, model: "scripted-model", embedding: { model: "embed-small", base_url: null } })).json()) as ModelTestReply;
    expect(test.checks.find((c) => c.name === "embeddings")).toMatchObject({ ok: true, detail: expect.stringMatching(/embed-small: \d+ dimensions/) });

    const saved = (await (await send("PUT", `${wb.url}/api/model`, { base_url: wb.model.baseUrl, model: "scripted-model", embedding: { model: "embed-small", base_url: null, api_key: "" } })).json()) as ModelSettingsReply;
    expect(saved.embedding).toEqual({ model: "embed-small", base_url: null, api_key_set: false });
    expect(await readFile(keyFile, "utf8")).toContain("EMBEDDING_MODEL=embed-small\n");
    await expect.poll(async () => (await status()).embedder.label, { timeout: 10000 }).toContain("embed-small");
    await expect.poll(() => wb!.model.embeddedTexts.some((t) => t.includes("Sauerkraut ferments")), { timeout: 10000 }).toBe(true);
  });
});

describe("the key typed in the dialog", () => {
  it("is never in the server's log, even at debug level, nor in any answer", async () => {
    const keyFile = await withKeyFile();
    const model = await startScriptedModelServer(() => ({ content: "ok" }));
    cleanups.push(() => model.close());
    const root = await mkdtemp(join(tmpdir(), "moc-keylog-"));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const server = await startServerProcess({ WORKBENCH_ROOT: root, KEY_FILE: keyFile, LOG_LEVEL: "debug" }, { cleanEnv: true });
    cleanups.push(async () => server.child.kill("SIGKILL"));
    const bodies: string[] = [];
    for (const [method, path] of [["POST", "/api/model/test"], ["PUT", "/api/model"]]) {
      bodies.push(await (await send(method, `${server.url}${path}`, { base_url: model.baseUrl, model: "scripted-model", api_key: KEY })).text());
    }
    bodies.push(await (await send("PUT", `${server.url}/api/model`, { base_url: model.baseUrl, model: "bad model", api_key: KEY })).text()); // refused
    bodies.push(await (await fetch(`${server.url}/api/model`)).text(), await (await fetch(`${server.url}/api/health`)).text());
    const answer = await send("POST", `${server.url}/api/chat`, { message: "hi", stream: false });
    bodies.push(await answer.text());
    expect(JSON.parse(bodies.at(-1)!)).toMatchObject({ content: "ok" });
    expect(model.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(bodies.join("\n")).not.toContain(KEY);
    expect(server.output.join("")).not.toContain(KEY);
    expect(server.output.join("").length).toBeGreaterThan(0); // the log was there to look at
  });
});

describe("Test connection", () => {
  it("reports what a server can do: its models, chat, streaming, reasoning, usage and tools", async () => {
    wb = await startWorkbench({
      noModel: true,
      script: (body: ChatRequestBody) => (body.tools?.length ? { toolCalls: [{ name: "read_file", args: { path: "memory/MEMORY.md" } }] } : { reasoning: "Counting.", content: "1 2 3 4 5" }),
    });
    const reply = (await (await send("POST", `${wb.url}/api/model/test`, { base_url: wb.model.baseUrl, model: "scripted-model", api_key: "" })).json()) as ModelTestReply;
    expect(reply.models, JSON.stringify(reply.checks)).toEqual(["scripted-model"]);
    expect(Object.fromEntries(reply.checks.map((c) => [c.name, c.ok]))).toEqual({ models: true, chat: true, streaming: true, reasoning: true, usage: true, tools: true, vision: true });
    expect(reply.checks.find((c) => c.name === "models")).toEqual({ name: "models", ok: true, detail: '1 model listed, "scripted-model" among them' });
    // A mistyped name that this server answers for anyway (as some do): chat works, and the model list warns.
    const typo = (await (await send("POST", `${wb.url}/api/model/test`, { base_url: wb.model.baseUrl, model: "scripted-modle", api_key: "" })).json()) as ModelTestReply;
    expect(typo.checks.find((c) => c.name === "chat")).toMatchObject({ ok: true });
    expect(typo.checks.find((c) => c.name === "models")).toEqual({ name: "models", ok: true, warning: true, detail: '1 model listed; "scripted-modle" is not among them' });
    // Nothing was saved by testing.
    expect(await (await fetch(`${wb.url}/api/model`)).json()).toMatchObject({ api_key_set: false, base_url: null });
  });

  it("says which part fails: a model that rejects tools, a server that is not there", async () => {
    const model = await startScriptedModelServer((body) =>
      body.tools?.length ? { kind: "error", status: 400, message: "registry.ollama.ai/library/gemma:2b does not support tools" } : { content: "1 2 3 4 5" },
    );
    cleanups.push(() => model.close());
    wb = await startWorkbench({ noModel: true });
    const reply = (await (await send("POST", `${wb.url}/api/model/test`, { base_url: model.baseUrl, model: "gemma:2b" })).json()) as ModelTestReply;
    expect(reply.checks.find((c) => c.name === "chat")).toMatchObject({ ok: true });
    expect(reply.checks.find((c) => c.name === "tools")).toMatchObject({ ok: false, detail: expect.stringContaining("does not support tools") });
    const dead = (await (await send("POST", `${wb.url}/api/model/test`, { base_url: "http://127.0.0.1:9/v1", model: "m" })).json()) as ModelTestReply;
    expect(dead.checks.find((c) => c.name === "chat")).toMatchObject({ ok: false, detail: expect.stringMatching(/Cannot reach/) });
  });
});
