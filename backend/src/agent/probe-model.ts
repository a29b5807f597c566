import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { ModelCheck, ModelTestReply } from "@mini-openclaw/protocol";
import { z } from "zod";
import type { ModelConfig } from "../config/config.js";
import type { Embedder } from "../knowledge/embedders.js";
import { defineTool } from "../tools/core-tool.js";
import { createChatModel } from "./chat-model.js";
import { classifyModelError } from "./model-errors.js";
import { BlockWriter } from "./block-writer.js";
import { streamModelStep } from "./stream-model-step.js";
import { toolDefinition } from "./tool-definition.js";
import { endpointOf } from "../config/default-endpoint.js";

const PROBE_MS = 30_000;

/** A tool the probe offers, to see whether the model calls tools at all (it never runs). */
const probeTool = defineTool({
  name: "read_file",
  description: "Read a text file. Call it with the path you are asked for.",
  schema: z.object({ path: z.string() }),
  execute: async () => ({ ok: true, output: "" }),
});

/** "3 models listed", and whether the model named is among them. */
function listedDetail(models: string[], name: string): string {
  const count = `${models.length} model${models.length === 1 ? "" : "s"} listed`;
  if (models.length === 0 || name === "") return count;
  return models.includes(name) ? `${count}, "${name}" among them` : `${count}; "${name}" is not among them`;
}

async function listModels(model: ModelConfig, signal: AbortSignal): Promise<{ check: ModelCheck; models: string[] | null }> {
  const base = endpointOf(model.baseUrl).replace(/\/+$/, "");
  try {
    const response = await fetch(`${base}/models`, { headers: model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {}, signal });
    if (!response.ok) return { models: null, check: { name: "models", ok: false, detail: `GET /models answered ${response.status}` } };
    const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
    const models = (body.data ?? []).flatMap((m) => (typeof m.id === "string" ? [m.id] : []));
    const listed = models.includes(model.model);
    // A name the server does not list is most often mistyped: some servers answer for any name, so say so whatever chat does.
    const unlisted = models.length > 0 && model.model !== "" && !listed;
    return {
      models,
      check: {
        name: "models",
        ok: true,
        detail: listedDetail(models, model.model),
        ...(unlisted ? { warning: true as const } : {}),
      },
    };
  } catch (err) {
    return { models: null, check: { name: "models", ok: false, detail: `GET /models failed: ${(err as Error).message}` } };
  }
}

/**
 * "Test connection": what a server can do with these settings, tried for real: its model list, a
 * short streamed answer (does it stream, reason, report usage?), a tool-call probe, and one
 * embedding when an embedding model is set. Each request
 * goes through the same client and normalizer as a turn, so what works here works in a turn.
 */
/** One embedding of a short text, when an embedding model is set (the embedder's own 30 s limit applies). */
async function embeddingCheck(embedding: EmbeddingProbe): Promise<ModelCheck> {
  try {
    const [vector] = await embedding.embedder.embedDocuments(["Does this endpoint embed text?"]);
    return { name: "embeddings", ok: true, detail: `${embedding.model}: ${vector.length} dimensions` };
  } catch (err) {
    return { name: "embeddings", ok: false, detail: `${embedding.model}: ${(err as Error).message}` };
  }
}

/** The embeddings to try, made by the caller (which decides which key they may send where). */
export interface EmbeddingProbe {
  model: string;
  embedder: Embedder;
}

/** An 8×8 red PNG, for the vision probe. */
const PROBE_IMAGE =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8CAFWEXHbQSACj/P8Fu7N9hAAAAAElFTkSuQmCC";

/**
 * `vision`: also send a small image (a profile's Test connection), to see whether the model takes
 * images: a server whose model does not refuses the request (OpenAI and vLLM with a 400, Ollama with an error).
 */
export async function probeModel(settings: ModelConfig, embedding: EmbeddingProbe | null, signal: AbortSignal, { vision = false }: { vision?: boolean } = {}): Promise<ModelTestReply> {
  const model: ModelConfig = { ...settings, maxRetries: 0, timeoutMs: Math.min(settings.timeoutMs, PROBE_MS) };
  const timeout = () => AbortSignal.any([signal, AbortSignal.timeout(PROBE_MS)]);
  const failed = (name: ModelCheck["name"], err: unknown, requestSignal: AbortSignal): ModelCheck => ({
    name,
    ok: false,
    detail: classifyModelError(err, { baseUrl: model.baseUrl, timeoutMs: PROBE_MS, abortReason: requestSignal.aborted ? "timeout" : undefined, receivedAnyChunk: false }).message,
  });
  const { models, check: modelsCheck } = await listModels(model, timeout());
  const checks: ModelCheck[] = [modelsCheck];
  if (!model.model.trim()) {
    // Nothing to chat with yet: the list is what the user picks from.
    const detail = models?.length ? `no model named yet: pick one of the ${models.length} the server lists, then test again` : "no model named yet: type the model's name";
    return { models, checks: [...checks, { name: "chat", ok: false, detail }] };
  }

  const chatSignal = timeout();
  try {
    // Pieces as the server sent them (the turn's events join what arrives at once).
    let pieces = 0;
    const step = await streamModelStep(await createChatModel(model, { signal: chatSignal }), [new SystemMessage("Answer briefly."), new HumanMessage("Count from 1 to 5, separated by spaces.")], {
      signal: chatSignal,
      blocks: new BlockWriter(() => {}, () => "b"),
      onChunk: (event) => {
        if (event.event === "content-block-delta" && event.delta.type === "text-delta" && event.delta.text) pieces++;
      },
    });
    checks.push({ name: "chat", ok: step.text.trim() !== "", detail: step.text.trim() ? `answered "${step.text.trim().slice(0, 60)}"` : "the answer was empty" });
    checks.push({ name: "streaming", ok: pieces > 1, detail: pieces > 1 ? `${pieces} pieces streamed` : "the answer came whole, not streamed" });
    checks.push({ name: "reasoning", ok: step.reasoning !== "", detail: step.reasoning ? `${step.reasoning.length} characters of reasoning` : "no reasoning seen (fine for a model that does not reason)" });
    checks.push({ name: "usage", ok: step.usage !== undefined, detail: step.usage ? `${step.usage.input_tokens} in, ${step.usage.output_tokens} out` : "no token counts reported" });
  } catch (err) {
    checks.push(failed("chat", err, chatSignal));
  }

  const toolSignal = timeout();
  try {
    const chat = (await createChatModel(model, { signal: toolSignal })).bindTools([toolDefinition(probeTool as never)]);
    const step = await streamModelStep(chat as never, [new HumanMessage("Call read_file with the path memory/MEMORY.md. Do not answer in text.")], {
      signal: toolSignal,
      blocks: new BlockWriter(() => {}, () => "b"),
      onChunk: () => {},
    });
    const call = step.toolCalls[0];
    checks.push({ name: "tools", ok: call !== undefined, detail: call ? `called ${call.name} with ${JSON.stringify(call.args).slice(0, 80)}` : "answered without calling the tool" });
  } catch (err) {
    checks.push(failed("tools", err, toolSignal));
  }
  if (vision) {
    const visionSignal = timeout();
    try {
      const step = await streamModelStep(
        await createChatModel(model, { signal: visionSignal }),
        [new HumanMessage({ content: [{ type: "text", text: "What colour is this image? Answer with one word." }, { type: "image_url", image_url: { url: PROBE_IMAGE } }] })],
        { signal: visionSignal, blocks: new BlockWriter(() => {}, () => "b"), onChunk: () => {} },
      );
      checks.push({ name: "vision", ok: true, detail: `took an image and answered "${step.text.trim().slice(0, 40)}"` });
    } catch (err) {
      checks.push(failed("vision", err, visionSignal));
    }
  }
  if (embedding) checks.push(await embeddingCheck(embedding));
  return { models, checks };
}
