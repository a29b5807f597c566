/**
 * Several models (issue 38): profiles beside the `OPENAI_*` default, a session's profile and one
 * message's, helpers on their own profiles, failover before the first token, usage and cost. Two
 * scripted OpenAI-compatible servers over real HTTP stand for two providers; each records the URL,
 * model and key every request came with.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatEvent, ModelsReply, SessionDetail, StoredEvent, UsageReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatRequestBody, type ModelReply, type ModelScript, type ScriptedModelServer, startScriptedModelServer, systemPromptOf } from "../test-support/scripted-model-server.js";
import { chat, fetchSession, postJson, sessionIdOf, sseEvents, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
let other: ScriptedModelServer | undefined;
afterEach(async () => {
  await wb?.close();
  await other?.close();
  wb = other = undefined;
});

const KEY_A = "sk-aaaa-default-4f1c9e";
const KEY_B = "sk-bbbb-profile-7d2a0b";

const send = (url: string, method: string, path: string, body?: unknown) =>
  fetch(`${url}${path}`, { method, ...(body !== undefined ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}) });

/** A workbench whose default profile is server A (key A), with profile `b` on server B (key B, model-b). */
async function twoProviders(scriptA: ModelScript | ModelReply[], scriptB: ModelScript | ModelReply[], env: Record<string, string> = {}, profileB: Record<string, unknown> = {}) {
  other = await startScriptedModelServer(scriptB);
  wb = await startWorkbench({ script: scriptA, env: { OPENAI_API_KEY: KEY_A, ...env } });
  const saved = await send(wb.url, "PUT", "/api/models/b", { base_url: other.baseUrl, model: "model-b", api_key: KEY_B, ...profileB });
  expect(saved.status).toBe(200);
  return { a: wb.model, b: other };
}

const bearer = (server: ScriptedModelServer, i: number) => server.requests[i].headers.authorization;
const turnsOf = (detail: SessionDetail) => storedEvents(detail.entries);
const stepStarts = (events: Array<ChatEvent | StoredEvent>) => events.filter((e) => e.type === "step_start");

async function chatWith(body: Record<string, unknown>): Promise<ChatEvent[]> {
  const response = await postJson(`${wb!.url}/api/chat`, { stream: true, ...body });
  expect(response.headers.get("content-type")).toMatch(/event-stream/);
  const events: ChatEvent[] = [];
  for await (const event of sseEvents(response)) events.push(event);
  return events;
}

describe("model profiles: per session and per message", () => {
  it("a message to profile B goes to B's URL with B's model and key, once; the next goes back to A; the turn records who answered", async () => {
    const { a, b } = await twoProviders([{ content: "From A." }, { content: "A again." }], [{ content: "From B." }]);
    const first = await chat(wb!, "hello");
    const id = sessionIdOf(first);
    expect(a.requests).toHaveLength(1);
    expect(a.requests[0].body.model).toBe("scripted");
    expect(bearer(a, 0)).toBe(`Bearer ${KEY_A}`);

    const second = await chatWith({ message: "this one to B", session_id: id, model: "b" });
    expect(second.at(-1)).toMatchObject({ type: "final", content: "From B." });
    expect(b.requests).toHaveLength(1);
    expect(b.requests[0].body.model).toBe("model-b");
    expect(bearer(b, 0)).toBe(`Bearer ${KEY_B}`);
    // B was sent the whole history, the system prompt as A got it.
    expect(systemPromptOf(b.requests[0].body)).toBe(systemPromptOf(a.requests[0].body));
    expect(JSON.stringify(b.requests[0].body.messages)).toContain("From A.");

    await chat(wb!, "and back", id);
    expect(a.requests).toHaveLength(2);
    expect(b.requests).toHaveLength(1);

    const starts = stepStarts(turnsOf(await fetchSession(wb!.url, id)));
    expect(starts.map((s) => s.type === "step_start" && [s.profile, s.model])).toEqual([["default", "scripted"], ["b", "model-b"], ["default", "scripted"]]);
  });

  it("a session switched to B stays on B, keeps its history and prompt, and says so in its summary; a new session can start on B", async () => {
    const { a, b } = await twoProviders([{ content: "A." }], [{ content: "B one." }, { content: "B two." }, { content: "B three." }]);
    const id = sessionIdOf(await chat(wb!, "start on A"));
    const patched = await send(wb!.url, "PATCH", `/api/sessions/${id}`, { model: "b" });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id, model: "b" });
    await chat(wb!, "now B", id);
    await chat(wb!, "still B", id);
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(2);
    expect(systemPromptOf(b.requests[1].body)).toBe(systemPromptOf(a.requests[0].body));
    expect(JSON.stringify(b.requests[1].body.messages)).toContain("start on A");

    const fresh = await chatWith({ message: "new on B", session_model: "b" });
    expect(b.requests).toHaveLength(3);
    const list = (await (await fetch(`${wb!.url}/api/sessions`)).json()) as { sessions: Array<{ id: string; model?: string }> };
    expect(list.sessions.find((s) => s.id === sessionIdOf(fresh))?.model).toBe("b");
  });

  it("a profile's declared quirks are saved with it and shown with those in force; a misspelt quirk is refused", async () => {
    await twoProviders([{ content: "A." }], [], {}, { compat: { think_tags: false } });
    const models = (await (await send(wb!.url, "GET", "/api/models")).json()) as ModelsReply;
    const b = models.profiles.find((p) => p.name === "b");
    expect(b).toMatchObject({ compat: { think_tags: false }, compat_in_force: { reasoning_back: "auto", think_tags: false, detected_for: null } });
    expect(models.profiles.find((p) => p.name === "default")?.compat_in_force).toMatchObject({ think_tags: true, detected_for: null });
    const refused = await send(wb!.url, "PUT", "/api/models/b", { base_url: other!.baseUrl, model: "model-b", compat: { reasoning_back: "sometimes" } });
    expect(refused.status).toBe(400);
    expect(JSON.parse(await readFile(join(wb!.dataRoot, "MODELS.json"), "utf8")).profiles.b.compat).toEqual({ think_tags: false });
  });

  it("an unknown profile is a 400 naming it, and the message is not stored", async () => {
    await twoProviders([{ content: "A." }], []);
    const id = sessionIdOf(await chat(wb!, "first"));
    for (const body of [{ model: "nope" }, { session_model: "nope" }]) {
      const response = await postJson(`${wb!.url}/api/chat`, { message: "lost?", session_id: id, ...body });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain('"nope"');
    }
    expect((await send(wb!.url, "PATCH", `/api/sessions/${id}`, { model: "nope" })).status).toBe(400);
    const detail = await fetchSession(wb!.url, id);
    expect(detail.entries.filter((e) => e.type === "user")).toHaveLength(1);
  });

  it("a profile without a key or base URL: the turn's error names the profile and its setting", async () => {
    await twoProviders([{ content: "A." }], []);
    expect((await send(wb!.url, "PUT", "/api/models/hosted", { model: "gpt-x" })).status).toBe(200);
    const events = await chatWith({ message: "hi", model: "hosted" });
    expect(events.at(-1)).toMatchObject({ type: "error", code: "model_not_configured" });
    expect((events.at(-1) as { message: string }).message).toContain("MODEL_HOSTED_API_KEY");
    // The list says so beforehand: the picker shows "not set up" rather than a model chat would not reach.
    const listed = (await (await fetch(`${wb!.url}/api/models`)).json()) as ModelsReply;
    expect(Object.fromEntries(listed.profiles.map((p) => [p.name, p.configured]))).toMatchObject({ hosted: false, default: true, b: true });
  });

  it("deleting a profile a session uses puts the session back on the default, said once", async () => {
    const { a } = await twoProviders([{ content: "A one." }, { content: "A two." }], [{ content: "B." }]);
    const id = sessionIdOf(await chatWith({ message: "on B", session_model: "b" }));
    expect((await send(wb!.url, "DELETE", "/api/models/b")).status).toBe(200);
    const next = await chat(wb!, "where now?", id);
    expect(next.filter((e) => e.type === "model_switch")).toEqual([expect.objectContaining({ why: "profile_deleted", from: "b", to: "default" })]);
    const after = await chat(wb!, "and now?", id);
    expect(after.some((e) => e.type === "model_switch")).toBe(false);
    expect(a.requests).toHaveLength(2);
    // The profiles file no longer names it, and its key is gone from KEY.md.
    expect(await readFile(join(wb!.dataRoot, "MODELS.json"), "utf8")).not.toContain('"b"');
    expect(await readFile(`${wb!.dataRoot}-KEY.md`, "utf8")).not.toContain(KEY_B);
  });
});

describe("a profile's parameters and Test connection", () => {
  it("sends the profile's temperature, output limit and reasoning effort, and only for that profile", async () => {
    const { a, b } = await twoProviders([{ content: "A." }], [{ content: "B." }], {}, { temperature: 0.2, max_output_tokens: 256, reasoning_effort: "low" });
    await chatWith({ message: "to B", model: "b" });
    expect(b.requests[0].body).toMatchObject({ temperature: 0.2, reasoning_effort: "low" });
    expect(b.requests[0].body.max_tokens ?? b.requests[0].body.max_completion_tokens).toBe(256);
    await chat(wb!, "to A");
    for (const field of ["temperature", "reasoning_effort", "max_tokens", "max_completion_tokens"]) expect(a.requests[0].body[field]).toBeUndefined();
  });

  it("Test connection finds whether the model takes images: a server that refuses them says so", async () => {
    const refusesImages: ModelScript = (body) =>
      JSON.stringify(body.messages).includes("image_url") ? { kind: "error", status: 400, message: "This model does not support image input." } : { content: "1 2 3 4 5" };
    await twoProviders([{ content: "A." }], refusesImages);
    const tried = async (url: string) =>
      ((await (await postJson(`${wb!.url}/api/models/test`, { base_url: url, model: "m" })).json()) as { checks: Array<{ name: string; ok: boolean; detail: string }> }).checks.find((c) => c.name === "vision");
    expect(await tried(other!.baseUrl)).toMatchObject({ ok: false, detail: expect.stringContaining("does not support image input") });
    // The scripted default server takes any content, images included.
    expect(await tried(wb!.model.baseUrl)).toMatchObject({ ok: true });
    expect(JSON.stringify(wb!.model.requests.at(-1)!.body.messages)).toContain("data:image/png;base64,");
  });
});

describe("helpers on their own profiles", () => {
  const roleOf = (body: ChatRequestBody) => /^You are the "([^"]+)" sub-agent/.exec(systemPromptOf(body))?.[1] ?? null;
  const isReviewer = (body: ChatRequestBody) => systemPromptOf(body).startsWith("# Reviewer");

  it("a role whose model: names profile B, and the reviewer set to B, run on B while the chat runs on A", async () => {
    const scriptA: ModelScript = (body) =>
      body.messages.some((m) => m.role === "tool") ? { content: "Main answer after the helper." } : { toolCalls: [{ id: "call_1", name: "delegate", args: { agent: "cheap", task: "Count to three." } }] };
    const scriptB: ModelScript = (body) => {
      if (isReviewer(body)) return { content: '{"advice": "", "record": "REVIEW-ON-B"}' };
      if (roleOf(body) === "cheap") return { content: "one two three" };
      return { content: "unexpected" };
    };
    const { a, b } = await twoProviders(scriptA, scriptB, { REVIEWER: "on" });
    await writeFile(join(wb!.dataRoot, "agents/cheap.md"), "---\nname: cheap\ndescription: Counts.\nmodel: b\ntools: read_file\n---\nCount.\n");
    expect((await send(wb!.url, "PUT", "/api/models", { helpers: { reviewer: "b" } })).status).toBe(200);

    const events = await chat(wb!, "use the helper");
    expect(events.at(-1)).toMatchObject({ type: "final", content: "Main answer after the helper." });
    const id = sessionIdOf(events);
    expect(a.requests.every((r) => !isReviewer(r.body) && roleOf(r.body) === null)).toBe(true);
    expect(b.requests.filter((r) => roleOf(r.body) === "cheap").map((r) => r.body.model)).toEqual(["model-b"]);
    await expect.poll(() => b.requests.some((r) => isReviewer(r.body)), { timeout: 5000 }).toBe(true);
    expect(bearer(b, b.requests.length - 1)).toBe(`Bearer ${KEY_B}`);
    await expect.poll(async () => (await fetchSession(wb!.url, id)).entries.some((e) => e.type === "review"), { timeout: 5000 }).toBe(true);

    // Their usage is counted with the session, apart from the agent's own.
    const usage = (await fetchSession(wb!.url, id)).usage;
    expect(usage.rows.map((r) => [r.profile, r.by]).sort()).toEqual([["b", "reviewer"], ["b", "sub_agent"], ["default", "agent"]]);
  });

  it("a role's bare model name keeps its old meaning: that model on the turn's endpoint", async () => {
    const scriptA: ModelScript = (body) => {
      if (roleOf(body) === "named") return { content: "done" };
      return body.messages.some((m) => m.role === "tool") ? { content: "ok" } : { toolCalls: [{ name: "delegate", args: { agent: "named", task: "t" } }] };
    };
    const { a } = await twoProviders(scriptA, []);
    await writeFile(join(wb!.dataRoot, "agents/named.md"), "---\nname: named\ndescription: d\nmodel: some-other-model\ntools: read_file\n---\nGo.\n");
    await chat(wb!, "go");
    expect(a.requests.filter((r) => roleOf(r.body) === "named").map((r) => r.body.model)).toEqual(["some-other-model"]);
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("failover", () => {
  /** Default profile A with B as its fallback. */
  async function withFallback(scriptA: ModelReply[], env: Record<string, string> = {}) {
    const servers = await twoProviders(scriptA, [{ content: "B took over." }], env);
    expect((await send(wb!.url, "PUT", "/api/models/default", { model: "scripted", base_url: wb!.model.baseUrl, fallbacks: ["b"] })).status).toBe(200);
    return servers;
  }

  for (const [name, reply] of [
    ["503", { kind: "error", status: 503, message: "overloaded" }],
    ["429", { kind: "error", status: 429, message: "slow down" }],
  ] as Array<[string, ModelReply]>) {
    it(`A refuses with ${name}: the turn goes on with B, and says so`, async () => {
      const { b } = await withFallback([reply]);
      const events = await chat(wb!, "hello");
      expect(events.at(-1)).toMatchObject({ type: "final", content: "B took over." });
      const switched = events.filter((e) => e.type === "model_switch");
      expect(switched).toEqual([expect.objectContaining({ why: "failover", from: "default", to: "b", step: 1 })]);
      expect(b.requests).toHaveLength(1);
      expect(stepStarts(events).map((s) => s.type === "step_start" && s.profile)).toEqual(["default", "b"]);
    });
  }

  it("A unreachable (nothing listening): B answers", async () => {
    other = await startScriptedModelServer([{ content: "B took over." }]);
    wb = await startWorkbench({ env: { OPENAI_API_KEY: KEY_A, OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` } });
    await send(wb.url, "PUT", "/api/models/b", { base_url: other.baseUrl, model: "model-b" });
    expect((await send(wb.url, "PUT", "/api/models/default", { model: "scripted", base_url: `http://127.0.0.1:${await closedPort()}/v1`, fallbacks: ["b"] })).status).toBe(409);
    // The environment sets the default's endpoint: only its fallbacks are saved to the file.
    const models = (await (await fetch(`${wb.url}/api/models`)).json()) as ModelsReply;
    const base = models.profiles.find((p) => p.name === "default")!.base_url!;
    expect((await send(wb.url, "PUT", "/api/models/default", { model: "scripted", base_url: base, fallbacks: ["b"] })).status).toBe(200);
    const events = await chat(wb, "hello");
    expect(events.at(-1)).toMatchObject({ type: "final", content: "B took over." });
    expect(events.find((e) => e.type === "model_switch")).toMatchObject({ why: "failover", reason: expect.stringContaining("Cannot reach") });
  });

  it("A silent past the timeout before its first token: B answers", async () => {
    const { b } = await withFallback([{ kind: "hang" }], { MODEL_TIMEOUT_MS: "700" });
    const events = await chat(wb!, "hello");
    expect(events.at(-1)).toMatchObject({ type: "final", content: "B took over." });
    expect(events.find((e) => e.type === "model_switch")).toMatchObject({ reason: expect.stringContaining("sent nothing") });
    expect(b.requests).toHaveLength(1);
  });

  it("no switch once a token has streamed, and none on 401", async () => {
    const { b } = await withFallback([{ kind: "cut", content: "Partial answer that breaks off here", afterChunks: 3 }, { kind: "error", status: 401, message: "bad key" }]);
    const cut = await chat(wb!, "first");
    expect(cut.at(-1)).toMatchObject({ type: "error" });
    expect(cut.some((e) => e.type === "model_switch")).toBe(false);
    const auth = await chat(wb!, "second");
    expect(auth.at(-1)).toMatchObject({ type: "error", code: "model_auth" });
    expect((auth.at(-1) as { message: string }).message).toContain("OPENAI_API_KEY");
    expect(auth.some((e) => e.type === "model_switch")).toBe(false);
    expect(b.requests).toHaveLength(0);
  });
});

describe("usage and cost", () => {
  it("each turn's tokens and cost, per session and per day, match what the servers reported", async () => {
    const prices = { input: 2, cached_input: 0.5, output: 8 };
    const { a, b } = await twoProviders(
      [{ content: "A.", usage: { prompt_tokens: 1000, completion_tokens: 100 } }],
      [{ content: "B.", usage: { prompt_tokens: 4000, completion_tokens: 500, cached_tokens: 1000 } }],
      {},
      { prices },
    );
    const id = sessionIdOf(await chat(wb!, "on A"));
    const onB = await chatWith({ message: "on B", session_id: id, model: "b" });
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(1);
    // (3,000 × $2 + 1,000 × $0.5 + 500 × $8) / 1,000,000
    const expectedCost = (3000 * 2 + 1000 * 0.5 + 500 * 8) / 1e6;
    expect(onB.find((e) => e.type === "usage")).toEqual({ type: "usage", input_tokens: 4000, cached_tokens: 1000, output_tokens: 500, profile: "b", model: "model-b", cost: expectedCost });

    const { usage } = await fetchSession(wb!.url, id);
    expect(usage.total).toMatchObject({ requests: 2, input_tokens: 5000, cached_tokens: 1000, output_tokens: 600, cost: expectedCost });
    expect(usage.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ profile: "default", by: "agent", input_tokens: 1000, output_tokens: 100, cost: null }),
        expect.objectContaining({ profile: "b", by: "agent", input_tokens: 4000, output_tokens: 500, cost: expectedCost }),
      ]),
    );

    const today = new Date().toISOString().slice(0, 10);
    const day = (await (await fetch(`${wb!.url}/api/usage?from=${today}&to=${today}`)).json()) as UsageReply;
    expect(day.days.map((d) => d.day)).toEqual([today]);
    expect(day.total).toMatchObject({ requests: 2, input_tokens: 5000, output_tokens: 600, cost: expectedCost });
    const past = (await (await fetch(`${wb!.url}/api/usage?from=2020-01-01&to=2020-01-31`)).json()) as UsageReply;
    expect(past).toMatchObject({ days: [], total: { requests: 0, cost: null } });
    expect((await fetch(`${wb!.url}/api/usage?from=2020-02-01&to=2020-01-01`)).status).toBe(400);
  });
});

describe("the profiles file", () => {
  it("a malformed MODELS.json: the server starts, the problem is shown, the last good profiles stay, the file is never rewritten", async () => {
    await twoProviders([{ content: "A." }], [{ content: "B still." }]);
    const file = join(wb!.dataRoot, "MODELS.json");
    const broken = `{ "profiles": { "b": { "model": "x", "api_key": "${KEY_B}" } } }`;
    await writeFile(file, broken);
    await expect.poll(async () => ((await (await fetch(`${wb!.url}/api/models`)).json()) as ModelsReply).problem, { timeout: 6000 }).toContain("KEY.md");
    const health = (await (await fetch(`${wb!.url}/api/health`)).json()) as { models: { problem: string | null } };
    expect(health.models.problem).toContain("MODELS.json");
    // The last good profiles are in use: b is still there and answers.
    const events = await chatWith({ message: "to b", model: "b" });
    expect(events.at(-1)).toMatchObject({ type: "final", content: "B still." });
    // Saving through the API is refused while the file is broken; the file stays as the user wrote it.
    expect((await send(wb!.url, "PUT", "/api/models/c", { model: "m" })).status).toBe(409);
    expect(await readFile(file, "utf8")).toBe(broken);
  });

  it("a workbench with a broken file from the start still starts, on the OPENAI_* default", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-models-"));
    await writeFile(join(root, "MODELS.json"), "{ not json");
    wb = await startWorkbench({ dataRoot: root, script: [{ content: "default works" }] });
    const reply = (await (await fetch(`${wb.url}/api/models`)).json()) as ModelsReply;
    expect(reply.problem).toContain("not valid JSON");
    expect(reply.profiles.map((p) => p.name)).toEqual(["default"]);
    expect((await chat(wb, "hi")).at(-1)).toMatchObject({ type: "final", content: "default works" });
    await wb.close();
    wb = undefined;
    await rm(root, { recursive: true, force: true });
  });
});
