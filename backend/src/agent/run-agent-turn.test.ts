/**
 * The loop on its own, against a scripted OpenAI-compatible server over real HTTP: what a Stop at
 * each moment of a step does to the model request.
 */
import { HumanMessage } from "@langchain/core/messages";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedModelServer, startScriptedModelServer } from "../../test-support/scripted-model-server.js";
import { plainProfile } from "../config/resolved-profile.js";
import { compatInForce } from "../models/provider-compat.js";
import { runAgentTurn } from "./run-agent-turn.js";

let model: ScriptedModelServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const profileAt = (baseUrl: string) => plainProfile("default", { baseUrl, apiKey: "k", model: "m", timeoutMs: 5000, maxRetries: 0 }, compatInForce(baseUrl));
const silentLog = { error: () => {} };

describe("runAgentTurn", () => {
  it("a turn stopped while its first step is prepared sends no request and ends as aborted", async () => {
    model = await startScriptedModelServer([{ content: "should never be asked" }]);
    const stop = new AbortController();
    const events: ChatEvent[] = [];
    const outcome = await runAgentTurn({
      profiles: [profileAt(model.baseUrl)],
      messages: [new HumanMessage("hi")],
      // The user's Stop lands while the prompt is being built.
      prepareStep: async () => {
        stop.abort("stopped_by_user");
        return {};
      },
      tools: [],
      locationPrefix: ".",
      maxSteps: 4,
      signal: stop.signal,
      emit: (event) => events.push(event),
      log: silentLog,
    });
    expect(outcome).toMatchObject({ type: "error", code: "aborted" });
    expect(model.requests).toHaveLength(0);
    expect(events.some((e) => e.type === "token")).toBe(false);
  });

  it("a Stop mid-stream closes the model request and ends the turn as aborted", async () => {
    model = await startScriptedModelServer([{ content: Array.from({ length: 200 }, (_, i) => `w${i}`).join(" "), chunkDelayMs: 5 }]);
    const stop = new AbortController();
    const events: ChatEvent[] = [];
    const outcome = await runAgentTurn({
      profiles: [profileAt(model.baseUrl)],
      messages: [new HumanMessage("hi")],
      tools: [],
      locationPrefix: ".",
      maxSteps: 4,
      signal: stop.signal,
      emit: (event) => {
        events.push(event);
        if (event.type === "token" && events.filter((e) => e.type === "token").length === 3) stop.abort("stopped_by_user");
      },
      log: silentLog,
    });
    expect(outcome).toMatchObject({ type: "error", code: "aborted" });
    await expect.poll(() => model!.requests[0]?.closedEarly).toBe(true);
  });
});
