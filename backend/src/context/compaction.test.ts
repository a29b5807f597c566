import type { SessionEntry } from "@mini-openclaw/protocol";
import { describe, expect, it } from "vitest";
import { historyMessages } from "./session-history.js";
import { planCompaction } from "./compact-session.js";
import { loadedSkills } from "./loaded-skills.js";

const ts = "2026-01-01T00:00:00.000Z";
const user = (content: string, model_content?: string): SessionEntry => ({ type: "user", ts, content, ...(model_content ? { model_content } : {}) });
const answer = (content: string): SessionEntry => ({ type: "event", ts, event: { type: "final", content, duration_ms: 1 } });
const readSkill = (path: string, output: string): SessionEntry => ({
  type: "event",
  ts,
  event: { type: "tool_result", id: `c-${path}`, name: "read_file", output, ok: true, duration_ms: 1, details: { path } },
});
const skill = (name: string, location: string): SessionEntry => ({ type: "event", ts, event: { type: "skill", name, location } });

describe("loadedSkills", () => {
  it("finds the text a skill was loaded with, from read_file or from a slash command, latest load last", () => {
    const entries = [
      user("/get_weather Paris", '<skill name="get_weather" location="./skills/get_weather/SKILL.md">\nSteps for Paris.\n</skill>\n\nThe user ran /get_weather with: Paris.'),
      skill("get_weather", "./skills/get_weather/SKILL.md"),
      answer("13 °C"),
      user("plan it"),
      readSkill("skills/pm/SKILL.md", "---\nname: pm\n---\nMake a mind map."),
      skill("pm", "./skills/pm/SKILL.md"),
    ];
    expect(loadedSkills(entries)).toEqual([
      { name: "get_weather", location: "./skills/get_weather/SKILL.md", content: "Steps for Paris." },
      { name: "pm", location: "./skills/pm/SKILL.md", content: "---\nname: pm\n---\nMake a mind map." },
    ]);
  });

  it("carries the skills of an earlier compaction forward", () => {
    const carried = { name: "get_weather", location: "./skills/get_weather/SKILL.md", content: "Steps." };
    const entries: SessionEntry[] = [user("a"), { type: "compaction", ts, content: "sum", covers_turns: 1, skills: [carried], forced: false }, user("b")];
    expect(loadedSkills(entries)).toEqual([carried]);
  });
});

describe("planCompaction and the history after it", () => {
  const turns = [user("one"), answer("1"), user("two"), answer("2"), user("three"), answer("3")];

  it("covers all but the kept turns, and nothing twice", () => {
    const plan = planCompaction(turns, 1);
    expect(plan?.coversTurns).toBe(2);
    expect(plan?.covered).toEqual(turns.slice(0, 4));
    const compacted: SessionEntry[] = [...turns, { type: "compaction", ts, content: "sum", covers_turns: 2, skills: [], forced: false }];
    expect(planCompaction(compacted, 1)).toBeNull();
    expect(planCompaction(compacted, 0)?.coversTurns).toBe(3);
    expect(planCompaction([], 0)).toBeNull();
  });

  it("sends the summary and carried skills instead of the covered turns, and the rest as they were", () => {
    const carried = { name: "get_weather", location: "./skills/get_weather/SKILL.md", content: "Steps for Paris." };
    const entries: SessionEntry[] = [...turns, { type: "compaction", ts, content: "They counted to two.", covers_turns: 2, skills: [carried], forced: false }];
    const messages = historyMessages(entries).map((m) => [m.getType(), m.content]);
    expect(messages).toHaveLength(3);
    expect(messages[0][0]).toBe("human");
    expect(messages[0][1]).toContain('<conversation_summary turns="2">\nThey counted to two.\n</conversation_summary>');
    expect(messages[0][1]).toContain('<skill name="get_weather" location="./skills/get_weather/SKILL.md">\nSteps for Paris.\n</skill>');
    expect(messages.slice(1)).toEqual([
      ["human", "three"],
      ["ai", "3"],
    ]);
  });
});
