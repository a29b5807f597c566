import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SkillsReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { systemPromptOf } from "../test-support/scripted-model-server.js";
import { weatherScript } from "../test-support/weather-script.js";
import { chat, contentKinds, entryKinds, fetchSession, postJson, sessionIdOf, startWorkbench, sseEvents, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench;
afterEach(async () => wb?.close());

describe("a weather turn through POST /api/chat", () => {
  it("streams tool_call, tool_result with the skill text, then final, and stores the session", async () => {
    wb = await startWorkbench({ script: weatherScript });
    const response = await postJson(`${wb.url}/api/chat`, { message: "What's the weather in Paris?", stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = [];
    for await (const event of sseEvents(response)) events.push(event);

    const types = events.map((e) => e.type);
    const call = events.find((e) => e.type === "tool_call");
    const result = events.find((e) => e.type === "tool_result");
    const final = events.find((e) => e.type === "final");
    expect(call).toMatchObject({ name: "read_file", input: { path: "./skills/get_weather/SKILL.md" } });
    expect(result).toMatchObject({ name: "read_file", ok: true });
    expect(result?.type === "tool_result" && result.id).toBe(call?.type === "tool_call" && call.id);
    expect(result?.type === "tool_result" && result.output).toContain("name: get_weather");
    expect(result?.type === "tool_result" && result.duration_ms).toBeGreaterThanOrEqual(0);
    expect(final).toMatchObject({ content: "Per the get_weather skill: sunny, 21 °C in Paris." });
    expect(types.indexOf("tool_call")).toBeLessThan(types.indexOf("tool_result"));
    expect(types.indexOf("tool_result")).toBeLessThan(types.indexOf("final"));
    expect(types[types.length - 1]).toBe("final");
    // Reasoning deltas became thoughts; reading SKILL.md activated the skill.
    expect(events.filter((e) => e.type === "thought").map((e) => (e.type === "thought" ? e.content : "")).join("")).toBe(
      "A weather question: read the skill first.The skill says to use Open-Meteo.",
    );
    expect(events).toContainEqual(expect.objectContaining({ type: "skill", name: "get_weather", location: "./skills/get_weather/SKILL.md" }));

    const id = sessionIdOf(events);
    const list = (await (await fetch(`${wb.url}/api/sessions`)).json()) as { sessions: Array<{ id: string; title: string; message_count: number }> };
    expect(list.sessions).toContainEqual(expect.objectContaining({ id, title: "What's the weather in Paris?", message_count: 2 }));

    const session = await fetchSession(wb.url, id);
    expect(contentKinds(entryKinds(session.entries))).toEqual(["snapshot", "user", "thought", "usage", "tool_call", "skill", "tool_result", "thought", "token", "usage", "final"]);
    // Each model request is a step, and each streamed block is opened and closed around its pieces
    // (a thought, the call's arguments; a thought, the text).
    expect(entryKinds(session.entries).filter((k) => k.endsWith("_start"))).toEqual(["step_start", "thought_start", "tool_input_start", "step_start", "thought_start", "text_start"]);
    expect(storedEvents(session.entries).filter((e) => e.type === "step_end")).toEqual([
      { type: "step_end", step: 1, finish_reason: "tool_calls", response_model: "scripted" },
      { type: "step_end", step: 2, finish_reason: "stop", response_model: "scripted" },
    ]);
    const stored = storedEvents(session.entries);
    expect(stored.find((e) => e.type === "tool_call")).toMatchObject({ name: "read_file", input: { path: "./skills/get_weather/SKILL.md" } });
    expect(stored.find((e) => e.type === "tool_result")).toMatchObject({ name: "read_file", ok: true, output: expect.stringContaining("## Output format") });
  });

  it("says how long the model thought: thought_end carries the time from its first piece to its end, stored with the turn", async () => {
    // Four reasoning pieces 100 ms apart before the answer's first: the thought lasts ~400 ms on the wire.
    wb = await startWorkbench({ script: () => ({ reasoning: "one two three four", content: "Done.", chunkDelayMs: 100 }) });
    const events = await chat(wb, "think first");
    const ends = events.filter((e) => e.type === "thought_end");
    expect(ends).toHaveLength(1);
    const ms = ends[0]?.type === "thought_end" ? ends[0].ms : undefined;
    expect(ms).toBeGreaterThanOrEqual(300);
    expect(ms).toBeLessThan(10_000);
    const stored = storedEvents((await fetchSession(wb.url, sessionIdOf(events))).entries).filter((e) => e.type === "thought_end");
    expect(stored).toEqual(ends);
  });

  it("answers a non-streamed turn with the final content and the events", async () => {
    wb = await startWorkbench({ script: weatherScript });
    const response = await postJson(`${wb.url}/api/chat`, { message: "weather in Paris?", stream: false });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { content: string; session_id: string; events: Array<{ type: string }> };
    expect(body.content).toBe("Per the get_weather skill: sunny, 21 °C in Paris.");
    expect(body.events.map((e) => e.type)).toContain("tool_result");
  });

  it("writes the snapshot location as ./backend/skills/... for the default root, and read_file accepts it", async () => {
    // The default data root is <repo>/backend; simulate it by pointing the location prefix there.
    wb = await startWorkbench({ script: weatherScript, configure: (c) => (c.locationPrefix = "./backend") });
    const events = await chat(wb, "weather in Paris?");
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ input: { path: "./backend/skills/get_weather/SKILL.md" } });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ ok: true });
    expect(await readFile(join(wb.dataRoot, "SKILLS_SNAPSHOT.md"), "utf8")).toContain(
      "<location>./backend/skills/get_weather/SKILL.md</location>",
    );
  });

  it("carries the conversation into the next turn of the same session", async () => {
    wb = await startWorkbench({ script: weatherScript });
    const id = sessionIdOf(await chat(wb, "weather in Paris?"));
    await chat(wb, "hi", id);
    const second = wb.model.requests[wb.model.requests.length - 1].body.messages;
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
    expect(second[2].tool_calls?.[0].function.name).toBe("read_file");
  });
});

describe("the system prompt the model receives", () => {
  it("holds the six sections in order", async () => {
    wb = await startWorkbench({ script: [{ content: "ok" }] });
    await chat(wb, "hello");
    const prompt = systemPromptOf(wb.model.requests[0].body);
    const names = [...prompt.matchAll(/<file name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual(["SKILLS_SNAPSHOT.md", "SOUL.md", "IDENTITY.md", "USER.md", "AGENTS.md", "MEMORY.md"]);
    expect(prompt).toContain("<available_skills>");
    expect(prompt).toContain("first call `read_file` with the skill's `<location>`");
  });

  it("cuts a 25,000-character MEMORY.md with ...[truncated] and says where the full file is", async () => {
    wb = await startWorkbench({ script: [{ content: "ok" }] });
    await writeFile(join(wb.dataRoot, "memory/MEMORY.md"), `# Memory\n${"m".repeat(25_000)}`);
    await chat(wb, "hello");
    const prompt = systemPromptOf(wb.model.requests[0].body);
    const memory = prompt.slice(prompt.indexOf('<file name="MEMORY.md"'));
    expect(memory).toContain("...[truncated]");
    expect(memory).toContain("The full file is ./memory/MEMORY.md");
    expect(memory.match(/m/g)?.length ?? 0).toBeLessThan(20_100);

    const view = (await (await fetch(`${wb.url}/api/prompt?session_id=${sessionIdOf(await chat(wb, "again"))}`)).json()) as {
      sections: Array<{ name: string; truncated: boolean; raw_chars: number; injected_chars: number }>;
      text: string;
    };
    const section = view.sections.find((s) => s.name === "MEMORY.md");
    expect(section).toMatchObject({ truncated: true, raw_chars: 25_009 });
    expect(section!.injected_chars).toBeLessThan(section!.raw_chars);
    expect(view.text).toBe(systemPromptOf(wb.model.requests[1].body));
  });

  it("carries MEMORY.md saved through POST /api/files into the next turn", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const id = sessionIdOf(await chat(wb, "hello"));
    const saved = await postJson(`${wb.url}/api/files`, { path: "memory/MEMORY.md", content: "# Memory\nThe user's cat is called Miso.\n" });
    expect(saved.status).toBe(200);
    await chat(wb, "hello again", id);
    expect(systemPromptOf(wb.model.requests[0].body)).not.toContain("Miso");
    expect(systemPromptOf(wb.model.requests[1].body)).toContain("The user's cat is called Miso.");
  });

  it("sends byte-identical system prompts on two turns when no file changed", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const id = sessionIdOf(await chat(wb, "one"));
    await chat(wb, "two", id);
    const [first, second] = wb.model.requests.map((r) => systemPromptOf(r.body));
    expect(first.length).toBeGreaterThan(1000);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  });

  it("names a missing workspace file as missing", async () => {
    wb = await startWorkbench({ script: [{ content: "ok" }] });
    await writeFile(join(wb.dataRoot, "workspace/USER.md"), "");
    const { rm } = await import("node:fs/promises");
    await rm(join(wb.dataRoot, "workspace/USER.md"));
    await chat(wb, "hello");
    expect(systemPromptOf(wb.model.requests[0].body)).toContain(
      '<file name="USER.md" path="./workspace/USER.md" missing="true">\n[missing: ./workspace/USER.md does not exist.',
    );
  });
});

describe("skills", () => {
  it("puts a skill folder added on disk into the next new session's snapshot", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const id = sessionIdOf(await chat(wb, "one"));
    await mkdir(join(wb.dataRoot, "skills/summarize_pdf"));
    await writeFile(
      join(wb.dataRoot, "skills/summarize_pdf/SKILL.md"),
      "---\nname: summarize_pdf\ndescription: Summarize a PDF <fast> & \"well\"\n---\nSteps.\n",
    );
    await chat(wb, "two", id); // same session: the snapshot is taken at session start
    expect(systemPromptOf(wb.model.requests[1].body)).not.toContain("summarize_pdf");
    await chat(wb, "three"); // new session
    const prompt = systemPromptOf(wb.model.requests[2].body);
    expect(prompt).toContain("<name>summarize_pdf</name>");
    expect(prompt).toContain("<description>Summarize a PDF &lt;fast&gt; &amp; &quot;well&quot;</description>");
  });

  it("reports a skill with broken frontmatter through /api/skills while the others load", async () => {
    wb = await startWorkbench();
    await mkdir(join(wb.dataRoot, "skills/broken"));
    await writeFile(join(wb.dataRoot, "skills/broken/SKILL.md"), "---\nname: broken\ndescription: [unclosed\n---\nbody\n");
    await mkdir(join(wb.dataRoot, "skills/no_description"));
    await writeFile(join(wb.dataRoot, "skills/no_description/SKILL.md"), "---\nname: no_description\n---\n# Title\n");
    const reply = (await (await fetch(`${wb.url}/api/skills`)).json()) as SkillsReply;
    expect(reply.skills.map((s) => s.name)).toEqual(["get_weather", "pm-analysis"]);
    expect(reply.problems).toEqual([
      expect.objectContaining({ folder: "broken", reason: expect.stringContaining("not valid YAML") }),
      expect.objectContaining({ folder: "no_description", reason: "frontmatter is missing 'description' and the skill has no text to describe it" }),
    ]);
  });
});
