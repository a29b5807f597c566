import type { SkillInfo } from "@mini-openclaw/protocol";
import { describe, expect, it } from "vitest";
import { renderSnapshot } from "./skills-snapshot.js";

const skill = (i: number, descriptionChars: number): SkillInfo => {
  const name = `skill-${String(i).padStart(3, "0")}`;
  const words = `Handles task ${i}: reads the input, checks it, and writes a careful report. `;
  return {
    name,
    description: words.repeat(Math.ceil(descriptionChars / words.length)).slice(0, descriptionChars).trim(),
    location: `./backend/skills/${name}/SKILL.md`,
    tags: [],
    allowed_tools: null,
    warnings: [],
    references: [],
  };
};

const entries = (text: string) => [...text.matchAll(/<skill><name>([^<]+)<\/name><description>([^<]*)<\/description><location>([^<]+)<\/location><\/skill>/g)];

describe("renderSnapshot", () => {
  it("escapes XML in every field", () => {
    const { text } = renderSnapshot([{ ...skill(1, 10), description: `<b> & "c" 'd'` }], 50_000);
    expect(text).toContain("<description>&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;</description>");
    expect(text.startsWith("<available_skills>\n<skill><name>skill-001</name>")).toBe(true);
  });

  it("holds 150 skills of ordinary size whole, each entry complete", () => {
    const skills = Array.from({ length: 150 }, (_, i) => skill(i, 200));
    const { text, stats } = renderSnapshot(skills, 50_000);
    expect(entries(text).map((m) => m[1])).toEqual(skills.map((s) => s.name));
    expect(entries(text).map((m) => m[2])).toEqual(skills.map((s) => s.description));
    expect(stats).toEqual({ listed: 150, shortened: [], omitted: [], chars: text.length, budget_chars: 50_000 });
    expect(text).not.toContain("[The skills list");
  });

  it("over the budget, shortens the longest descriptions first, at a word, and says so", () => {
    const skills = [...Array.from({ length: 140 }, (_, i) => skill(i, 150)), ...Array.from({ length: 10 }, (_, i) => skill(140 + i, 1000))];
    const { text, stats } = renderSnapshot(skills, 45_000);
    expect(text.length).toBeLessThanOrEqual(45_000);
    const listed = entries(text);
    expect(listed).toHaveLength(150);
    expect(stats.omitted).toEqual([]);
    expect(stats.shortened).toEqual(skills.slice(140).map((s) => s.name));
    // Short descriptions untouched; long ones cut at a word boundary and marked.
    expect(listed.slice(0, 140).map((m) => m[2])).toEqual(skills.slice(0, 140).map((s) => s.description));
    listed.slice(140).forEach((m, i) => {
      const kept = m[2].slice(0, -1);
      expect(m[2].endsWith("…")).toBe(true);
      expect(skills[140 + i].description.startsWith(kept)).toBe(true);
      expect(skills[140 + i].description[kept.length]).toBe(" ");
    });
    expect(text).toContain("[The skills list has a budget of 45000 characters: 10 descriptions are shortened");
  });

  it("past what shortening can save, leaves skills out whole (never mid-entry) and counts them", () => {
    const skills = Array.from({ length: 500 }, (_, i) => skill(i, 300));
    const { text, stats } = renderSnapshot(skills, 50_000);
    expect(text.length).toBeLessThanOrEqual(50_000);
    const listed = entries(text);
    expect(listed.length).toBe(stats.listed);
    expect(stats.listed + stats.omitted.length).toBe(500);
    expect(stats.omitted.length).toBeGreaterThan(0);
    expect(stats.omitted[0]).toBe(skills[stats.listed].name);
    // Every line between the tags is a whole entry.
    const body = text.slice(text.indexOf("\n") + 1, text.indexOf("</available_skills>")).trimEnd().split("\n");
    expect(body.every((line) => /^<skill>.*<\/skill>$/.test(line))).toBe(true);
    expect(text).toContain(`${stats.omitted.length} more skills are installed but not listed`);
  });

  it("is a pure function of the skills (byte-identical prompt for an unchanged set)", () => {
    const skills = Array.from({ length: 300 }, (_, i) => skill(i, 400));
    expect(renderSnapshot(skills, 40_000).text).toBe(renderSnapshot(skills, 40_000).text);
  });
});
