import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HealthReply, SessionDetail } from "@mini-openclaw/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalWeb, type LocalWeb } from "../test-support/local-web-server.js";
import { type ChatRequestBody, lastMessage, messageText } from "../test-support/scripted-model-server.js";
import { sandboxExpected } from "../test-support/tool-harness.js";
import { chat, sessionIdOf, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

let weather: LocalWeb;

/** A model following the get_weather skill: read it, geocode, fetch the forecast, answer from the data. */
function weatherModel(baseUrl: () => string) {
  return (body: ChatRequestBody) => {
    const toolMessages = body.messages.filter((m) => m.role === "tool");
    const system = messageText(body.messages[0].content);
    const location = /<name>get_weather<\/name>[\s\S]*?<location>([^<]+)<\/location>/.exec(system)?.[1] ?? "";
    switch (toolMessages.length) {
      case 0:
        return { toolCalls: [{ name: "read_file", args: { path: location } }] };
      case 1: {
        const skill = messageText(toolMessages[0].content);
        if (!skill.includes("geocoding-api.open-meteo.com")) return { content: "The skill did not say how." };
        return { toolCalls: [{ name: "fetch_url", args: { url: `${baseUrl()}/v1/search?name=Paris&count=1&language=en&format=json` } }] };
      }
      case 2: {
        const place = JSON.parse(messageText(lastMessage(body).content).split("\n\n").slice(1).join("\n\n")).results[0];
        return {
          toolCalls: [{ name: "fetch_url", args: { url: `${baseUrl()}/v1/forecast?latitude=${place.latitude}&longitude=${place.longitude}&current=temperature_2m` } }],
        };
      }
      default: {
        const forecast = JSON.parse(messageText(lastMessage(body).content).split("\n\n").slice(1).join("\n\n"));
        return { content: `**Weather in Paris, France**: ${forecast.current.temperature_2m} °C now.` };
      }
    }
  };
}

beforeAll(async () => {
  weather = await startLocalWeb({
    "/v1/search": (res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({ results: [{ name: "Paris", country: "France", latitude: 48.85, longitude: 2.35, timezone: "Europe/Paris" }] }),
      ),
    "/v1/forecast": (res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ current: { time: "2026-11-21T12:00", temperature_2m: 13.7 } })),
  });
});
afterAll(async () => weather?.close());

describe("a weather question end to end", () => {
  let wb: Workbench;
  afterAll(async () => wb?.close());

  it("reads the skill, fetches the (local, allowlisted) weather service, and answers with its temperature", async () => {
    wb = await startWorkbench({ script: weatherModel(() => weather.url), env: { FETCH_ALLOWLIST: `127.0.0.1:${weather.port}` } });
    const events = await chat(wb, "What's the weather in Paris?");
    const calls = events.filter((e) => e.type === "tool_call").map((e) => (e.type === "tool_call" ? [e.name, e.input] : []));
    expect(calls).toEqual([
      ["read_file", { path: "./skills/get_weather/SKILL.md" }],
      ["fetch_url", { url: expect.stringContaining("/v1/search?name=Paris") }],
      ["fetch_url", { url: expect.stringContaining("/v1/forecast?latitude=48.85&longitude=2.35") }],
    ]);
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.every((e) => e.type === "tool_result" && e.ok)).toBe(true);
    expect(events[events.length - 1]).toMatchObject({ type: "final", content: "**Weather in Paris, France**: 13.7 °C now." });
    expect(weather.hits.some((h) => h.startsWith("/v1/forecast"))).toBe(true);

    const session = (await (await fetch(`${wb.url}/api/sessions/${sessionIdOf(events)}`)).json()) as SessionDetail;
    const stored = storedEvents(session.entries);
    const storedCalls = stored.flatMap((e) => (e.type === "tool_call" ? [e] : []));
    expect(storedCalls.map((c) => c.name)).toEqual(["read_file", "fetch_url", "fetch_url"]);
    const forecast = storedCalls.find((c) => String((c.input as { url: string }).url).includes("forecast"))!;
    expect(stored.find((e) => e.type === "tool_result" && e.id === forecast.id)).toMatchObject({ output: expect.stringContaining("13.7") });
    expect(stored.at(-1)).toMatchObject({ type: "final", content: expect.stringContaining("13.7") });
  });
});

describe("/api/health reports the sandbox", () => {
  it("degraded when bubblewrap is hidden from PATH, with what to do", async () => {
    const emptyBin = await mkdtemp(join(tmpdir(), "moc-nobwrap-"));
    const wb = await startWorkbench({ env: { PATH: emptyBin } });
    try {
      const health = (await (await fetch(`${wb.url}/api/health`)).json()) as HealthReply;
      expect(health.sandbox).toMatchObject({ mode: "degraded", hint: expect.stringContaining("apt-get install bubblewrap") });
    } finally {
      await wb.close();
      await rm(emptyBin, { recursive: true, force: true });
    }
  });

  it.skipIf(!sandboxExpected().available)("bubblewrap when it is there", async () => {
    const wb = await startWorkbench();
    try {
      const health = (await (await fetch(`${wb.url}/api/health`)).json()) as HealthReply;
      expect(health.sandbox).toMatchObject({ mode: "bubblewrap", network: false });
    } finally {
      await wb.close();
    }
  });
});
