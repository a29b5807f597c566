import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openAiEmbedder } from "./embedders.js";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** An `/embeddings` endpoint answering each request with `answer(inputs)`; records every request body. */
async function endpoint(answer: (inputs: string[]) => unknown) {
  const bodies: Array<{ input: string[]; encoding_format?: string }> = [];
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw) as { input: string[] | string; encoding_format?: string };
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      bodies.push({ ...body, input: inputs });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(inputs)));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`, bodies };
}

/** A vector that says which text it is for: [length of the text, 1]. */
const vectorFor = (text: string) => [text.length, 1];

describe("the OpenAI-compatible embedder (LangChain's OpenAIEmbeddings)", () => {
  it("asks for floats in batches of 64, and puts out-of-order replies back in input order, unit length", async () => {
    const { baseUrl, bodies } = await endpoint((inputs) => ({
      object: "list",
      data: inputs.map((text, index) => ({ object: "embedding", index, embedding: vectorFor(text) })).reverse(),
    }));
    const embedder = openAiEmbedder({ model: "m", baseUrl, apiKey: null, timeoutMs: 5000, maxRetries: 0 });
    const texts = Array.from({ length: 70 }, (_, i) => "x".repeat(i + 1));
    const vectors = await embedder.embedDocuments(texts);
    expect(bodies.map((b) => [b.input.length, b.encoding_format])).toEqual([
      [64, "float"],
      [6, "float"],
    ]);
    vectors.forEach((v, i) => {
      const norm = Math.hypot(i + 1, 1);
      expect([v[0], v[1]].map((x) => Number(x.toFixed(5)))).toEqual([Number(((i + 1) / norm).toFixed(5)), Number((1 / norm).toFixed(5))]);
    });
  });

  it("a reply without one float vector per input is an error that says so", async () => {
    const { baseUrl } = await endpoint(() => ({ data: [{ index: 0 }] }));
    const embedder = openAiEmbedder({ model: "m", baseUrl, apiKey: null, timeoutMs: 5000, maxRetries: 0 });
    await expect(embedder.embedDocuments(["a", "b"])).rejects.toThrow("without one float vector per input");
    await expect(embedder.embedQuery("a", () => 1)).rejects.toThrow("without one float vector per input");
  });

  it("an endpoint that is down is named in the error", async () => {
    const embedder = openAiEmbedder({ model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: null, timeoutMs: 2000, maxRetries: 0 });
    await expect(embedder.embedQuery("a", () => 1)).rejects.toThrow(/embedding endpoint/);
  });
});
