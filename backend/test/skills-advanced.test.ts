import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionDetail } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { lastMessage, messageText, systemPromptOf } from "../test-support/scripted-model-server.js";
import { sandboxExpected } from "../test-support/tool-harness.js";
import { chat, postJson, sessionIdOf, uiEvents, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

describe("slash commands", () => {
  it("/get_weather Paris sends the skill's text with $ARGUMENTS replaced, and the skill stays in the conversation", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const events = await chat(wb, "/get_weather Paris");
    expect(events[1]).toMatchObject({ type: "skill", name: "get_weather", location: "./skills/get_weather/SKILL.md", allowed_tools: ["read_file", "fetch_url", "python_repl"] });
    const sent = messageText(lastMessage(wb.model.requests[0].body).content);
    expect(sent).toContain('<skill name="get_weather" location="./skills/get_weather/SKILL.md">');
    expect(sent).toContain("the place asked for is: Paris");
    expect(sent).not.toContain("$ARGUMENTS");
    expect(sent).not.toContain("allowed-tools:"); // the frontmatter stays out

    const id = sessionIdOf(events);
    await chat(wb, "and tomorrow?", id);
    const second = wb.model.requests[1].body.messages.map((m) => messageText(m.content));
    expect(second.some((text) => text.includes("the place asked for is: Paris"))).toBe(true);
    // The system prompt did not grow: the skill lives in the conversation.
    expect(systemPromptOf(wb.model.requests[1].body)).toBe(systemPromptOf(wb.model.requests[0].body));

    const session = (await (await fetch(`${wb.url}/api/sessions/${id}`)).json()) as SessionDetail;
    expect(session.entries[0]).toMatchObject({ type: "snapshot", content: expect.stringContaining("<name>get_weather</name>") });
    expect(session.entries[1]).toMatchObject({ type: "user", content: "/get_weather Paris", model_content: expect.stringContaining("Paris") });
    expect(session.entries[2]).toMatchObject({ type: "event", event: { type: "skill", name: "get_weather", location: "./skills/get_weather/SKILL.md" } });
  });

  it("an unknown skill is a clear 404 before anything runs", async () => {
    wb = await startWorkbench();
    const response = await postJson(`${wb.url}/api/chat`, { message: "/no_such_skill now" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Unknown skill /no_such_skill. Available: /get_weather, /pm-analysis.", code: "not_found" });
    expect(wb.model.requests).toHaveLength(0);
  });
});

describe.skipIf(!sandboxExpected().available)("allowed-tools while a skill is active", () => {
  it("a skill with `allowed-tools: read_file fetch_url` gets a refusal for terminal, and terminal does not run", async () => {
    wb = await startWorkbench({
      script: (body) => {
        const tools = body.messages.filter((m) => m.role === "tool").length;
        if (tools === 0) return { toolCalls: [{ name: "read_file", args: { path: "./skills/limited/SKILL.md" } }] };
        if (tools === 1) return { toolCalls: [{ name: "terminal", args: { command: "touch memory/ran-anyway" } }] };
        return { content: "done" };
      },
    });
    await mkdir(join(wb.dataRoot, "skills/limited"));
    await writeFile(join(wb.dataRoot, "skills/limited/SKILL.md"), "---\nname: limited\ndescription: A skill with few tools.\nallowed-tools: read_file fetch_url\n---\nFetch things only.\n");
    const events = await chat(wb, "use the limited skill");
    expect(events).toContainEqual(expect.objectContaining({ type: "skill", name: "limited", allowed_tools: ["read_file", "fetch_url"] }));
    const refusal = events.find((e) => e.type === "tool_result" && e.name === "terminal");
    expect(refusal).toMatchObject({
      ok: false,
      output: 'Error: terminal is not allowed while the skill "limited" is active: its allowed-tools are read_file, fetch_url. Use one of those, or finish the skill\'s steps first.',
    });
    expect(existsSync(join(wb.dataRoot, "memory/ran-anyway"))).toBe(false);
    // The model was told, and could act on it.
    expect(messageText(lastMessage(wb.model.requests[2].body).content)).toMatch(/not allowed while the skill "limited" is active/);
  });

  it("a skill's Bash(find:*) refuses find -delete, -exec and -fprint, as approvals do, and runs a plain find", async () => {
    const commands = ["find memory -delete", "find memory -exec rm {} ;", "find memory -fprint memory/listing", "find memory -name MEMORY.md"];
    wb = await startWorkbench({
      script: (body) => {
        const tools = body.messages.filter((m) => m.role === "tool").length;
        if (tools === 0) return { toolCalls: [{ name: "read_file", args: { path: "./skills/finder/SKILL.md" } }] };
        if (tools <= commands.length) return { toolCalls: [{ name: "terminal", args: { command: commands[tools - 1] } }] };
        return { content: "done" };
      },
    });
    await mkdir(join(wb.dataRoot, "skills/finder"));
    await writeFile(join(wb.dataRoot, "skills/finder/SKILL.md"), "---\nname: finder\ndescription: Finds files.\nallowed-tools: Bash(find:*)\n---\nFind things.\n");
    const events = await chat(wb, "find the memory files");
    const results = events.filter((e) => e.type === "tool_result" && e.name === "terminal");
    expect(results.map((r) => (r as { ok: boolean }).ok)).toEqual([false, false, false, true]);
    for (const refused of results.slice(0, 3)) expect((refused as { output: string }).output).toMatch(/not allowed while the skill "finder" is active/);
    expect(existsSync(join(wb.dataRoot, "memory/MEMORY.md"))).toBe(true);
    expect(existsSync(join(wb.dataRoot, "memory/listing"))).toBe(false);
  });

  it("without an active skill, the same call runs", async () => {
    wb = await startWorkbench({
      script: (body) => (body.messages.some((m) => m.role === "tool") ? { content: "done" } : { toolCalls: [{ name: "terminal", args: { command: "touch memory/ran" } }] }),
    });
    const events = await chat(wb, "touch it");
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ name: "terminal", ok: true });
    expect(existsSync(join(wb.dataRoot, "memory/ran"))).toBe(true);
  });
});

describe("a cache-stable prefix", () => {
  it("turns 1..5 of a session send byte-identical system prompts while no file changes", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const id = sessionIdOf(await chat(wb, "turn 1"));
    for (let turn = 2; turn <= 5; turn++) await chat(wb, `turn ${turn}`, id);
    const prompts = wb.model.requests.map((r) => Buffer.from(systemPromptOf(r.body)));
    expect(prompts).toHaveLength(5);
    for (const prompt of prompts.slice(1)) expect(prompt.equals(prompts[0])).toBe(true);
  });
});

describe("a session keeps its skills snapshot; the prefix changes only when its own files change", () => {
  it("a skill added (and a new session started) does not change an older session's prompt", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const older = sessionIdOf(await chat(wb!, "first"));
    await mkdir(join(wb!.dataRoot, "skills/newcomer"));
    await writeFile(join(wb!.dataRoot, "skills/newcomer/SKILL.md"), "---\nname: newcomer\ndescription: Arrived later.\n---\nBody.\n");
    await chat(wb!, "a new session"); // rewrites SKILLS_SNAPSHOT.md with the newcomer
    const events = await chat(wb!, "second", older);
    const [first, , third] = wb!.model.requests.map((r) => systemPromptOf(r.body));
    expect(third).toBe(first);
    expect(systemPromptOf(wb!.model.requests[1].body)).toContain("<name>newcomer</name>");
    expect(events.some((e) => e.type === "prefix")).toBe(false);
  });

  it("when MEMORY.md changes, the next turn says the prefix changed and why", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const id = sessionIdOf(await chat(wb!, "first"));
    await writeFile(join(wb!.dataRoot, "memory/MEMORY.md"), "# Memory\nA new fact.\n");
    const events = await chat(wb!, "second", id);
    expect(events).toContainEqual({ type: "prefix", changed: ["MEMORY.md"] });
    const quiet = await chat(wb!, "third", id);
    expect(quiet.some((e) => e.type === "prefix")).toBe(false);
  });
});


describe("UI events", () => {
  it("GET /api/events tells the UI to refresh skills when a SKILL.md appears, and names a file changed on disk", async () => {
    wb = await startWorkbench();
    const controller = new AbortController();
    const response = await fetch(`${wb.url}/api/events`, { signal: controller.signal });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const seen: unknown[] = [];
    const reading = (async () => {
      try {
        for await (const event of uiEvents(response)) seen.push(event);
      } catch {
        // aborted at the end of the test
      }
    })();
    await new Promise((r) => setTimeout(r, 1300)); // the watcher's first look
    await mkdir(join(wb.dataRoot, "skills/fresh"));
    await writeFile(join(wb.dataRoot, "skills/fresh/SKILL.md"), "---\nname: fresh\ndescription: New.\n---\n");
    await expect.poll(() => seen, { timeout: 3000 }).toContainEqual({ type: "refresh", target: "skills" });
    await writeFile(join(wb.dataRoot, "memory/MEMORY.md"), "# Memory\nchanged by another editor\n");
    await expect.poll(() => seen, { timeout: 3000 }).toContainEqual({ type: "file_changed", path: "memory/MEMORY.md" });
    // A SKILL.md that will be skipped is worth a warning where the user is looking.
    await mkdir(join(wb.dataRoot, "skills/broken"));
    await writeFile(join(wb.dataRoot, "skills/broken/SKILL.md"), "no frontmatter here\n");
    await expect.poll(() => seen, { timeout: 3000 }).toContainEqual({
      type: "toast",
      level: "warning",
      message: expect.stringMatching(/^Skill "broken" is skipped: SKILL.md has no frontmatter/),
      notice: { kind: "skill_skipped", folder: "broken", detail: expect.stringMatching(/^SKILL.md has no frontmatter/) },
    });
    controller.abort();
    await reading;
  });
});

describe("skill references and prompt sizes", () => {
  it("/api/skills lists the files beside a SKILL.md; the prompt view estimates tokens per section", async () => {
    wb = await startWorkbench();
    await mkdir(join(wb.dataRoot, "skills/get_weather/references"), { recursive: true });
    await writeFile(join(wb.dataRoot, "skills/get_weather/references/codes.md"), "# WMO codes\n");
    const skills = (await (await fetch(`${wb.url}/api/skills`)).json()) as { skills: Array<{ name: string; references: string[] }> };
    expect(skills.skills.find((s) => s.name === "get_weather")?.references).toEqual(["skills/get_weather/references/codes.md"]);
    const prompt = (await (await fetch(`${wb.url}/api/prompt`)).json()) as { sections: Array<{ injected_chars: number; token_estimate: number }> };
    for (const section of prompt.sections) expect(section.token_estimate).toBe(Math.ceil(section.injected_chars / 4));
  });
});
