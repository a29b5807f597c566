import { describe, expect, it } from "vitest";
import { parseSkill } from "./parse-skill.js";
import { renderSnapshot } from "./skills-snapshot.js";

describe("parseSkill", () => {
  it("reads name, description, tags and allowed-tools", () => {
    const parsed = parseSkill("---\nname: demo\ndescription: Does a thing\ntags: [a, b]\nallowed-tools: read_file fetch_url\n---\nBody\n", "demo");
    expect(parsed).toEqual({
      ok: true,
      skill: { name: "demo", description: "Does a thing", tags: ["a", "b"], allowed_tools: ["read_file", "fetch_url"], warnings: [] },
      body: "Body\n",
    });
  });

  it.each([
    ["no frontmatter", "# Just text", /no frontmatter/],
    ["invalid YAML", "---\nname: [x\n---\n", /not valid YAML/],
    ["missing name", "---\ndescription: d\n---\n", /missing 'name'/],
    ["missing description", "---\nname: x\n---\n", /missing 'description'/],
    ["a name with a slash", "---\nname: a/b\ndescription: d\n---\n", /'name' must be/],
    ["tags of the wrong type", "---\nname: x\ndescription: d\ntags: {a: 1}\n---\n", /'tags' must be/],
  ])("reports %s", (_label, text, reason) => {
    const parsed = parseSkill(text, "x");
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toMatch(reason);
  });

  it("warns (and still loads) on a name that differs from the folder and on unknown tools", () => {
    const parsed = parseSkill("---\nname: other\ndescription: d\nallowed-tools: [read_file, rm_rf]\n---\n", "folder");
    expect(parsed.ok && parsed.skill.warnings).toEqual([
      'name "other" differs from its folder "folder"',
      "allowed-tools names tools with no core equivalent (ignored): rm_rf",
    ]);
    expect(parsed.ok && parsed.skill.allowed_tools).toEqual(["read_file"]);
  });

  it("loads a description over 1,024 characters with a warning (public skills have them)", () => {
    const description = "Build apps with the Claude API. ".repeat(34).trim(); // 1,087 characters
    const parsed = parseSkill(`---\nname: claude-api\ndescription: ${description}\n---\n`, "claude-api");
    expect(parsed.ok && parsed.skill.warnings).toEqual([`'description' is ${description.length} characters, over the 1024 the Agent Skills format allows`]);
  });

  it("sees an edit to the same file (no stale frontmatter cache)", () => {
    parseSkill("---\nname: x\ndescription: one\n---\n", "x");
    const second = parseSkill("---\nname: x\ndescription: two\n---\n", "x");
    expect(second.ok && second.skill.description).toBe("two");
  });
});

describe("renderSnapshot", () => {
  it("escapes XML in every field", () => {
    const text = renderSnapshot([
      { name: "a", description: `<b> & "c" 'd'`, location: "./skills/a/SKILL.md", tags: [], allowed_tools: null, warnings: [], references: [] },
    ]);
    expect(text).toContain("<description>&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;</description>");
    expect(text.startsWith("<available_skills>\n  <skill>\n    <name>a</name>")).toBe(true);
  });
});
