/**
 * Round 4 on the model settings: a profile named like a property every object has (finding 7), a
 * saved key following its profile to a new host (finding 8), a provider's usage figures and a key
 * KEY.md cannot hold (finding 9).
 */
import type { ChatEvent, ModelsReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/config/config.js";
import { type ScriptedModelServer, startScriptedModelServer } from "../../test-support/scripted-model-server.js";
import { postJson, startWorkbench, type Workbench } from "../../test-support/workbench-harness.js";

let wb: Workbench | undefined;
let other: ScriptedModelServer | undefined;
afterEach(async () => {
  await wb?.close();
  await other?.close();
  wb = other = undefined;
});

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${wb!.url}${path}`, { method, ...(body !== undefined ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}) });

describe("a profile named after an object's own properties (finding 7)", () => {
  it("constructor, toString and __proto__ are names of no profile until one is made", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    for (const name of ["constructor", "toString", "hasOwnProperty"]) {
      expect((await send("PUT", "/api/models", { default: name })).status).toBe(400);
      expect((await send("PUT", "/api/models", { helpers: { compaction: name } })).status).toBe(400);
      expect((await send("PUT", "/api/models/other", { model: "m", base_url: wb.model.baseUrl, fallbacks: [name] })).status).toBe(400);
      expect((await postJson(`${wb.url}/api/tasks`, { name: "t", prompt: "p", profile: name, schedule: { kind: "every", seconds: 60 } })).status).toBe(400);
      expect((await postJson(`${wb.url}/api/chat`, { message: "hi", stream: false, model: name })).status).toBe(400);
    }
    // Chat still works on the default.
    expect((await postJson(`${wb.url}/api/chat`, { message: "hi", stream: false })).status).toBe(200);
    // Made on purpose, it is a profile like any other.
    expect((await send("PUT", "/api/models/constructor", { model: "m", base_url: wb.model.baseUrl })).status).toBe(200);
    expect(((await (await send("GET", "/api/models")).json()) as ModelsReply).profiles.map((p) => p.name)).toContain("constructor");
  });
});

/**
 * A workbench on its own model server `own` with KEY.md's settings as `saved` puts them in force (they
 * are frozen snapshots, models/key-settings.ts), and `other`, a server on another host (by name).
 */
async function withSavedSettings(saved: (config: Config, own: ScriptedModelServer) => void): Promise<{ own: ScriptedModelServer; otherUrl: string }> {
  other = await startScriptedModelServer(() => ({ content: "ok" }));
  const own = await startScriptedModelServer(() => ({ content: "ok" }));
  wb = await startWorkbench({ model: own, noModel: true, configure: (config) => saved(config, own) });
  const close = wb.close;
  wb.close = async () => {
    await close();
    await own.close();
  };
  return { own, otherUrl: other.baseUrl.replace("127.0.0.1", "localhost") };
}

describe("a saved key and a new host (finding 8)", () => {
  it("a profile's URL moved to another host: the test goes without the key, the save is refused until the key is typed again or confirmed", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    other = await startScriptedModelServer(() => ({ content: "ok" }));
    const otherUrl = other.baseUrl.replace("127.0.0.1", "localhost");
    expect((await send("PUT", "/api/models/remote", { model: "m", base_url: wb.model.baseUrl, api_key: "sk-remote-profile-key-1234" })).status).toBe(200);

    const test = await postJson(`${wb.url}/api/models/test`, { name: "remote", model: "m", base_url: otherUrl });
    expect(test.status).toBe(200);
    expect(other.requests.length).toBeGreaterThan(0);
    for (const request of other.requests) expect(String(request.headers.authorization ?? "")).not.toContain("sk-remote-profile-key-1234");

    const moved = await send("PUT", "/api/models/remote", { model: "m", base_url: otherUrl });
    expect(moved.status).toBe(409);
    const body = (await moved.json()) as { error: string; code: string; key_host: { from: string; to: string } };
    expect(body).toMatchObject({ code: "conflict", key_host: { from: new URL(wb.model.baseUrl).origin, to: new URL(otherUrl).origin } });
    expect(body.error).toMatch(/Type the key again/);

    // Confirmed, the key goes there; typed again, too. Same host, other path: no question.
    expect((await send("PUT", "/api/models/remote", { model: "m", base_url: otherUrl, key_to_new_host: true })).status).toBe(200);
    const before = other.requests.length;
    await postJson(`${wb.url}/api/chat`, { message: "hi", stream: false, model: "remote" });
    expect(other.requests.slice(before).some((r) => r.headers.authorization === "Bearer sk-remote-profile-key-1234")).toBe(true);
    expect((await send("PUT", "/api/models/remote", { model: "m2", base_url: `${otherUrl}/` })).status).toBe(200);
  });

  it("the default profile too: /api/model refuses to move its key unasked, and its test goes without it", async () => {
    // The default profile from KEY.md (the environment's settings cannot be changed from the UI at all).
    const { otherUrl } = await withSavedSettings((config, own) => {
      config.model = Object.freeze({ ...config.model, baseUrl: own.baseUrl, apiKey: "sk-default-key-5678abcd", model: "m" });
    });
    const test = await postJson(`${wb!.url}/api/model/test`, { model: "m", base_url: otherUrl });
    expect(test.status).toBe(200);
    for (const request of other!.requests) expect(String(request.headers.authorization ?? "")).not.toContain("sk-default-key-5678abcd");
    expect((await send("PUT", "/api/model", { model: "m", base_url: otherUrl })).status).toBe(409);
    expect((await send("PUT", "/api/model", { model: "m", base_url: otherUrl, api_key: "sk-typed-again-0000" })).status).toBe(200);
  });
});

describe("the embedding key and a new host", () => {
  /** A workbench whose chat model (its key) and embeddings (theirs, when given) are at `own`. */
  const withEmbeddings = (embeddingKey: string | null) =>
    withSavedSettings((config, own) => {
      config.model = Object.freeze({ ...config.model, baseUrl: own.baseUrl, apiKey: "sk-chat-key-5678abcd", model: "m" });
      config.embedding = Object.freeze({ model: "e", baseUrl: own.baseUrl, apiKey: embeddingKey });
    });
  /** The keys the embeddings endpoint was sent (it was asked at least once). */
  const keysSeenBy = (server: ScriptedModelServer) => {
    expect(server.embeddingAuth.length).toBeGreaterThan(0);
    return server.embeddingAuth.join(" ");
  };

  it("the saved embedding key does not follow the embeddings' base URL to another host unasked: refused, and the test goes without it", async () => {
    const { own, otherUrl } = await withEmbeddings("sk-embed-key-1234abcd");
    const moved = { model: "m", base_url: own.baseUrl, embedding: { model: "e", base_url: otherUrl } };
    const test = await postJson(`${wb!.url}/api/model/test`, moved);
    expect(test.status).toBe(200);
    expect(keysSeenBy(other!)).not.toContain("sk-embed-key-1234abcd");
    const refused = await send("PUT", "/api/model", moved);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "conflict", key_host: { from: new URL(own.baseUrl).origin, to: new URL(otherUrl).origin } });
    expect((await send("PUT", "/api/model", { ...moved, key_to_new_host: true })).status).toBe(200);
  });

  it("embeddings without a key of their own use the chat key: pointing them at another host does not take the chat key there unasked", async () => {
    const { own, otherUrl } = await withEmbeddings(null);
    const moved = { model: "m", base_url: own.baseUrl, embedding: { model: "e", base_url: otherUrl } };
    expect((await postJson(`${wb!.url}/api/model/test`, moved)).status).toBe(200);
    expect(keysSeenBy(other!)).not.toContain("sk-chat-key-5678abcd");
    expect((await send("PUT", "/api/model", moved)).status).toBe(409);
    // A key typed for the embeddings is theirs to send.
    expect((await send("PUT", "/api/model", { ...moved, embedding: { ...moved.embedding, api_key: "sk-embed-typed-0000" } })).status).toBe(200);
  });
});

describe("what a provider reports and what KEY.md can hold (finding 9)", () => {
  it("usage figures that are not counts are stored as 0, and the turn answers", async () => {
    wb = await startWorkbench({
      script: [
        { content: "one", usage: { prompt_tokens: "NaN", completion_tokens: { a: 1 }, cached_tokens: 1e308 } as never },
        { content: "two", usage: { prompt_tokens: -5, completion_tokens: 1e308 } },
      ],
    });
    for (const expected of ["one", "two"]) {
      const reply = await postJson(`${wb.url}/api/chat`, { message: "hi", stream: false });
      expect(reply.status).toBe(200);
      const { content, events } = (await reply.json()) as { content: string; events: ChatEvent[] };
      expect(content).toBe(expected);
      const usage = events.find((e) => e.type === "usage") as Extract<ChatEvent, { type: "usage" }>;
      for (const figure of [usage.input_tokens, usage.output_tokens, usage.cached_tokens]) expect(Number.isSafeInteger(figure) && figure >= 0).toBe(true);
    }
    expect((await send("GET", "/api/usage")).status).toBe(200);
  });

  it("a key with a line separator, a control character or a direction override is refused, not saved", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    for (const key of ["sk-abc\u2028def", "sk-abc\u2029def", "sk-\u0007abc", "sk-\u202eabc"]) {
      expect((await send("PUT", "/api/models/p", { model: "m", base_url: wb.model.baseUrl, api_key: key })).status).toBe(400);
      expect((await send("PUT", "/api/model", { model: "m", base_url: wb.model.baseUrl, api_key: key })).status).toBe(400);
    }
    const { profiles } = (await (await send("GET", "/api/models")).json()) as ModelsReply;
    expect(profiles.map((p) => p.name)).not.toContain("p");
  });
});
